import t from 'tap'
import { ensureFirstRunKey, firstRunMessage } from '../src/first-run.ts'
import { createApiKey } from '../src/repositories/api-keys.ts'
import { build } from './helper.ts'

t.test('with no key anywhere, a first key is made, works, and is stored as a hash', async (t) => {
  const app = await build(t, { apiKeys: [] })
  const key = await ensureFirstRunKey(app)
  t.match(key, /^pst_[A-Za-z0-9_-]{43}$/)
  const res = await app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${key!}` } })
  t.equal(res.statusCode, 200)
  const rows = await app.db.selectFrom('api_keys').select(['name', 'key_hash', 'key_prefix']).execute()
  t.equal(rows.length, 1)
  t.equal(rows[0]!.name, 'first-run')
  t.equal(rows[0]!.key_prefix, key!.slice(0, 10))
  t.match(rows[0]!.key_hash, /^[0-9a-f]{64}$/)
  t.equal(await ensureFirstRunKey(app), undefined, 'the next start makes none')
  t.match(firstRunMessage(key!, 'http://127.0.0.1:3000'), `curl -H 'Authorization: Bearer ${key!}' http://127.0.0.1:3000/v1/pets`)
})

t.test('no first key when keys come from the environment', async (t) => {
  const app = await build(t)
  t.equal(await ensureFirstRunKey(app), undefined)
  t.equal((await app.db.selectFrom('api_keys').selectAll().execute()).length, 0)
})

t.test('no first key when the database holds one', async (t) => {
  const app = await build(t, { apiKeys: [] })
  await createApiKey(app.db, 'ops')
  await app.apiKeys.sync(app)
  t.equal(await ensureFirstRunKey(app), undefined)
})
