/**
 * `npm run keys` as run: creating, listing and revoking against a running service, and a
 * repeated option. Beside it: keys-revoke.test.ts (revoking and the errors),
 * keys-digit-names.test.ts and keys-names.test.ts (names), keys-scopes.test.ts (scopes and
 * expiry), keys-rotate.test.ts (rotation); test/features/api-keys/command.test.ts has every
 * case in-process. Each run of the program takes seconds, so a few runs to a file keep each
 * far from the per-file time limit on a busy machine.
 */
import { join } from 'node:path'
import t from 'tap'
import { USAGE } from '../../src/features/api-keys/command.ts'
import { build } from '../helpers/app.ts'
import { until } from '../helpers/until.ts'
import { keys, keysFailure as failure, tempDir } from '../helpers/process.ts'
import { apiDocument } from '../../src/contract/document.ts'
import { declaredScopes } from '../../src/contract/operation-security.ts'

/** The scopes the document declares: a key made without --scopes holds them all. */
const SCOPES = [...declaredScopes(apiDocument).keys()]

t.test('create prints a key once, list never shows it, revoke stops it on a running service within a second', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  const created = await keys(url, 'create', '--name', 'billing')
  const key = /\n {2}(pst_[A-Za-z0-9_-]{43})\n/.exec(created.stdout)?.[1]
  t.ok(key, 'create prints the new key')
  t.ok(created.stdout.startsWith(`Created key "billing" (id 1), scopes ${SCOPES.join(', ')}, no expiry. It is shown this once; store it now:`), 'every scope the document declares')

  const app = await build(t, { database: { url } })
  const auth = { authorization: `Bearer ${key!}` }
  t.equal((await app.inject({ url: '/v1/pets', headers: auth })).statusCode, 200, 'the key works')

  // The service writes the use at its next sync (once a second): wait for it, however busy the machine.
  let listed = await keys(url, 'list')
  await until(async () => { listed = await keys(url, 'list'); return !/\s-\s+-$/m.test(listed.stdout) }, 'the last use to be recorded')
  const lines = listed.stdout.trim().split('\n')
  t.match(lines[0], /^ID\s+NAME\s+PREFIX\s+SCOPES\s+CREATED\s+EXPIRES\s+LAST USED\s+REVOKED$/)
  t.match(lines[1], new RegExp(`^1\\s+billing\\s+${key!.slice(0, 10)}…\\s+${SCOPES.join(',')}\\s+\\d{4}-\\d\\d-\\d\\dT\\S+Z\\s+-\\s+\\d{4}-\\d\\d-\\d\\dT\\S+Z\\s+-$`))
  t.notMatch(listed.stdout, key!.slice(10), 'the key itself is never listed')

  const revoked = await keys(url, 'revoke', 'billing')
  t.equal(revoked.stdout, 'Revoked key "billing" (id 1).\n')
  // The running service sees it at its next sync, without a restart.
  await until(async () => (await app.inject({ url: '/v1/pets', headers: auth })).statusCode === 401, 'the revoked key to be refused')
  t.pass('the revoked key is refused by the running service')
})

t.test('an option given more than once is a usage error naming it, and changes nothing', async (t) => {
  // The program as run, once: test/features/api-keys/command.test.ts has every command and
  // option in-process (each run of the program takes seconds).
  const url = join(tempDir(t), 'petstore.db')
  const refused = await failure(url, 'create', '--name', 'a', '--scopes', 'pets:read', '--scopes', 'orders:read')
  t.equal(refused.code, 2)
  t.equal(refused.stderr, `keys: --scopes is given more than once; give each option once\n${USAGE}\n`)
  t.equal(refused.stdout, '')
  t.equal((await keys(url, 'list', '--json')).stdout, '[]\n', 'no key made')
})
