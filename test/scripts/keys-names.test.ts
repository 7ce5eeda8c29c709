/**
 * `npm run keys` as run: names, scopes and expiry, and rotation against a running service
 * (keys.test.ts has creating, listing, revoking and the usage errors).
 */
import { join } from 'node:path'
import t from 'tap'
import { DEFAULTS } from '../../src/config/defaults.ts'
import { connect } from '../../src/database/connect.ts'
import { migrateToLatest } from '../../src/database/migrate.ts'
import { build } from '../helpers/app.ts'
import { until } from '../helpers/until.ts'
import { keys, keysFailure as failure, tempDir } from '../helpers/process.ts'

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
  await migrateToLatest(db)
  await db.insertInto('api_keys').values({ name: 'old\u001b[31mred', key_hash: 'x'.repeat(64), key_prefix: 'pst_abcdef', created_at: new Date().toISOString() }).execute()
  await db.destroy()
  const listed = await keys(url, 'list')
  t.notMatch(listed.stdout, '\u001b')
  t.match(listed.stdout, 'old\\u{1b}[31mred')
  t.equal((await keys(url, 'revoke', '1')).stdout, 'Revoked key "old\\u{1b}[31mred" (id 1).\n')
})

t.test('scopes and expiry on create, list --json, and mistakes that make nothing', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  const made = await keys(url, 'create', '--name', 'website', '--scopes', 'orders:read, pets:read', '--expires-in', '30d')
  t.match(made.stdout, /^Created key "website" \(id 1\), scopes pets:read, orders:read, expires (\S+Z)\. It is shown this once/)
  const expires = Date.parse(/expires (\S+Z)\./.exec(made.stdout)![1]!)
  t.ok(Math.abs(expires - (Date.now() + 30 * 86_400_000)) < 600_000, 'thirty days from now')

  // One mistake in the arguments and two in what the database holds, through the program for
  // their exit status; every other refusal is checked in-process (command.test.ts).
  const refusals: Array<[string[], string]> = [
    [['create', '--name', 'x', '--scopes', 'pets:read,pets:delete'], 'keys: unknown scope "pets:delete": the scopes are pets:read, pets:write, orders:read, orders:write (--scopes takes one or more, comma-separated)\n'],
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

t.test('rotate makes a new key of the same name and scopes; both work during the grace; revoke NAME ends both', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  const old = JSON.parse((await keys(url, 'create', '--name', 'shop', '--scopes', 'pets:read', '--json')).stdout) as { key: string, id: number }
  t.match(old, { id: 1, name: 'shop', scopes: ['pets:read'] })
  const rotated = await keys(url, 'rotate', 'shop', '--grace', '2h')
  t.match(rotated.stdout, /^Rotated key "shop": the old key \(id 1\) stops working at (\S+Z)\. The new key is "shop" \(id 2\), scopes pets:read, no expiry\. It is shown this once; store it now:\n\n {2}pst_\S+\n\n$/)
  const fresh = /\n {2}(pst_\S+)\n/.exec(rotated.stdout)![1]!

  const app = await build(t, { database: { url }, apiKeys: [] })
  for (const key of [old.key, fresh]) {
    t.equal((await app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${key}` } })).statusCode, 200, 'both keys work during the grace')
    t.equal((await app.inject({ method: 'POST', url: '/v1/pets', headers: { authorization: `Bearer ${key}` } })).statusCode, 403, 'and hold the same scopes')
  }
  const now = JSON.parse((await keys(url, 'rotate', 'shop', '--grace', '0', '--json')).stdout) as { key: string, replaced: { id: number, expiresAt: string } }
  t.match(now, { id: 3, name: 'shop', replaced: { id: 2 } })
  await until(async () => (await app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${fresh}` } })).statusCode === 401, 'a grace of 0 to end the old key at once')
  const ended = await app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${fresh}` } })
  t.equal(ended.headers['www-authenticate'], 'Bearer realm="petstore", error="invalid_token", error_description="the key has expired"')

  t.equal((await keys(url, 'revoke', 'shop')).stdout, 'Revoked key "shop" (id 1).\nRevoked key "shop" (id 2).\nRevoked key "shop" (id 3).\n')
  await until(async () => (await app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${now.key}` } })).statusCode === 401, 'the revoked keys to be refused')
  t.pass('revoking the name ends every key of it')
})
