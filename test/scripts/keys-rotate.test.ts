/**
 * `npm run keys` as run: rotation against a running service (keys.test.ts lists the other
 * files).
 */
import { join } from 'node:path'
import t from 'tap'
import { build } from '../helpers/app.ts'
import { until } from '../helpers/until.ts'
import { keys, tempDir } from '../helpers/process.ts'

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
