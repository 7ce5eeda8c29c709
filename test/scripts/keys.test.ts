import { join } from 'node:path'
import t from 'tap'
import { DEFAULTS } from '../../src/config/defaults.ts'
import { connect } from '../../src/database/connect.ts'
import { build } from '../helpers/app.ts'
import { until } from '../helpers/until.ts'
import { runScript, scriptResult, tempDir } from '../helpers/process.ts'

function keys (databaseUrl: string, ...args: string[]) {
  return runScript('scripts/keys.ts', args, { DATABASE_URL: databaseUrl })
}

/** `npm run keys` expected to fail: its exit code and output. */
function failure (databaseUrl: string, ...args: string[]) {
  return scriptResult('scripts/keys.ts', args, { DATABASE_URL: databaseUrl })
}

t.test('create prints a key once, list never shows it, revoke stops it on a running service within a second', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  const created = await keys(url, 'create', '--name', 'billing')
  const key = /\n {2}(pst_[A-Za-z0-9_-]{43})\n/.exec(created.stdout)?.[1]
  t.ok(key, 'create prints the new key')
  t.match(created.stdout, /^Created key "billing" \(id 1\)\. It is shown this once; store it now:/)

  const app = await build(t, { database: { url } })
  const auth = { authorization: `Bearer ${key!}` }
  t.equal((await app.inject({ url: '/v1/pets', headers: auth })).statusCode, 200, 'the key works')

  // The service writes the use at its next sync (once a second): wait for it, however busy the machine.
  let listed = await keys(url, 'list')
  await until(async () => { listed = await keys(url, 'list'); return !/\s-\s+-$/m.test(listed.stdout) }, 'the last use to be recorded')
  const lines = listed.stdout.trim().split('\n')
  t.match(lines[0], /^ID\s+NAME\s+PREFIX\s+CREATED\s+LAST USED\s+REVOKED$/)
  t.match(lines[1], new RegExp(`^1\\s+billing\\s+${key!.slice(0, 10)}…\\s+\\d{4}-\\d\\d-\\d\\dT\\S+Z\\s+\\d{4}-\\d\\d-\\d\\dT\\S+Z\\s+-$`))
  t.notMatch(listed.stdout, key!.slice(10), 'the key itself is never listed')

  const revoked = await keys(url, 'revoke', 'billing')
  t.equal(revoked.stdout, 'Revoked key "billing" (id 1).\n')
  // The running service sees it at its next sync, without a restart.
  await until(async () => (await app.inject({ url: '/v1/pets', headers: auth })).statusCode === 401, 'the revoked key to be refused')
  t.pass('the revoked key is refused by the running service')
})

t.test('revoke by id, and the errors', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  await keys(url, 'create', '--name', 'first')
  const duplicate = await failure(url, 'create', '--name', 'first')
  t.equal(duplicate.code, 1)
  t.equal(duplicate.stderr, 'keys: an active key named "first" already exists\n')
  t.equal((await keys(url, 'revoke', '1')).stdout, 'Revoked key "first" (id 1).\n')
  const again = await failure(url, 'revoke', '1')
  t.equal(again.code, 1)
  t.equal(again.stderr, 'keys: No active key with the id or name "1"\n')
  const byId = await failure(url, 'revoke', '--id', '1')
  t.equal(byId.stderr, 'keys: No active key with the id 1\n')
  t.match((await keys(url, 'create', '--name', 'first')).stdout, /\(id 2\)/, 'a revoked name can be used again')
  for (const args of [[], ['create'], ['create', '--name', ' '], ['revoke'], ['revoke', 'x', '--name', 'y'], ['revoke', '--id', 'abc'], ['list', 'extra'], ['rotate']]) {
    const usage = await failure(url, ...args)
    t.equal(usage.code, 2, args.join(' '))
    t.equal(usage.stderr, 'usage: npm run keys -- create --name NAME | list | revoke NAME|ID | revoke --id ID | revoke --name NAME\n', args.join(' '))
  }
})

t.test('a key named with digits can be revoked by name, and an ambiguous target is refused', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  await keys(url, 'create', '--name', 'first')
  await keys(url, 'create', '--name', '4242')
  t.equal((await keys(url, 'revoke', '4242')).stdout, 'Revoked key "4242" (id 2).\n', 'no key has the id 4242, so it is the name')
  await keys(url, 'create', '--name', '1')
  const ambiguous = await failure(url, 'revoke', '1')
  t.equal(ambiguous.code, 1)
  t.equal(ambiguous.stderr, 'keys: "1" is the id of one active key and the name of another; say --id 1 or --name 1\n')
  t.equal((await keys(url, 'revoke', '--name', '1')).stdout, 'Revoked key "1" (id 3).\n')
  t.equal((await keys(url, 'revoke', '--id', '1')).stdout, 'Revoked key "first" (id 1).\n')
})

t.test('key names with control or invisible characters are refused, and never printed raw', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  for (const name of ['evil\u001b[2Jname', 'tab\there', 'rtl\u202Eeman', 'zero\u200Bwidth', 'x'.repeat(101)]) {
    const refused = await failure(url, 'create', '--name', name)
    t.equal(refused.code, 1, JSON.stringify(name))
    t.equal(refused.stderr, 'keys: a key name is 1 to 100 characters, with no control or invisible formatting characters\n')
  }
  // A name stored before the rule, or by another tool, is escaped when shown.
  const db = await connect({ ...DEFAULTS.database, url })
  await db.insertInto('api_keys').values({ name: 'old\u001b[31mred', key_hash: 'x'.repeat(64), key_prefix: 'pst_abcdef', created_at: new Date().toISOString() }).execute()
  await db.destroy()
  const listed = await keys(url, 'list')
  t.notMatch(listed.stdout, '\u001b')
  t.match(listed.stdout, 'old\\u{1b}[31mred')
  t.equal((await keys(url, 'revoke', '1')).stdout, 'Revoked key "old\\u{1b}[31mred" (id 1).\n')
})
