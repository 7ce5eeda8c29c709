/**
 * `npm run keys` as run: scopes and expiry on create, `list --json`, and mistakes that make
 * nothing (keys.test.ts lists the other files).
 */
import { join } from 'node:path'
import t from 'tap'
import { apiDocument } from '../../src/contract/document.ts'
import { declaredScopes } from '../../src/contract/operation-security.ts'
import { keys, keysFailure as failure, tempDir } from '../helpers/process.ts'

/** The scopes the document declares, as the command lists them. */
const SCOPES = [...declaredScopes(apiDocument).keys()]

t.test('scopes and expiry on create, list --json, and mistakes that make nothing', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  const made = await keys(url, 'create', '--name', 'website', '--scopes', 'orders:read, pets:read', '--expires-in', '30d')
  t.match(made.stdout, /^Created key "website" \(id 1\), scopes pets:read, orders:read, expires (\S+Z)\. It is shown this once/)
  const expires = Date.parse(/expires (\S+Z)\./.exec(made.stdout)![1]!)
  t.ok(Math.abs(expires - (Date.now() + 30 * 86_400_000)) < 600_000, 'thirty days from now')

  // One mistake in the arguments and two in what the database holds, through the program for
  // their exit status; every other refusal is checked in-process (command.test.ts).
  const refusals: Array<[string[], string]> = [
    [['create', '--name', 'x', '--scopes', 'pets:read,pets:delete'], `keys: unknown scope "pets:delete": the scopes are ${SCOPES.join(', ')} (--scopes takes one or more, comma-separated)\n`],
    [['rotate', 'nobody'], 'keys: no current key with the name "nobody" (revoked and already rotated keys cannot be rotated)\n'],
    [['revoke', 'nobody'], 'keys: no active key with the name "nobody"\n']
  ]
  for (const [args, message] of refusals) {
    const refused = await failure(url, ...args)
    t.equal(refused.code, 1, args.join(' '))
    t.equal(refused.stderr, message, args.join(' '))
  }
  const listed = JSON.parse((await keys(url, 'list', '--json')).stdout) as Array<Record<string, unknown>>
  t.equal(listed.length, 1, 'none of the mistakes made a key')
  t.same(Object.keys(listed[0]!), ['id', 'name', 'prefix', 'scopes', 'effectiveScopes', 'createdAt', 'expiresAt', 'lastUsedAt', 'revokedAt', 'replacedAt'],
    'list --json holds no secret and no hash')
  t.match(listed[0], { id: 1, name: 'website', scopes: ['pets:read', 'orders:read'], effectiveScopes: ['pets:read', 'orders:read'], lastUsedAt: null, revokedAt: null, replacedAt: null })

  // A :write scope includes the :read scope of its resource: the list says so, and the key holds what it was given.
  const writer = await keys(url, 'create', '--name', 'editor', '--scopes', 'pets:write')
  t.match(writer.stdout, /^Created key "editor" \(id 2\), scopes pets:write \(includes pets:read\), no expiry\./)
  t.match((await keys(url, 'list')).stdout.split('\n')[2], /^2\s+editor\s+pst_\S+…\s+pets:write \(includes pets:read\)\s+\d{4}-/)
  const both = JSON.parse((await keys(url, 'list', '--json')).stdout) as Array<Record<string, unknown>>
  t.match(both[1], { id: 2, name: 'editor', scopes: ['pets:write'], effectiveScopes: ['pets:read', 'pets:write'] })
})
