import t from 'tap'
import { createApiKey } from '../../../src/features/api-keys/repository.ts'
import { build, TEST_KEY } from '../../helpers/app.ts'
import { errorBody } from '../../helpers/answers.ts'

const CHALLENGE = 'Bearer realm="petstore"'
const INVALID_TOKEN = 'Bearer realm="petstore", error="invalid_token"'

t.test('a request without a valid bearer key answers 401 with a challenge', async (t) => {
  const app = await build(t)
  const cases: Array<[string, Record<string, string>, string, string]> = [
    ['no header', {}, CHALLENGE, 'Missing API key: send Authorization: Bearer <API_KEY>'],
    ['empty header', { authorization: '' }, CHALLENGE, 'Missing API key: send Authorization: Bearer <API_KEY>'],
    ['basic scheme', { authorization: `Basic ${TEST_KEY}` }, CHALLENGE, 'Authorization header must use the Bearer scheme'],
    ['bare key', { authorization: TEST_KEY }, CHALLENGE, 'Authorization header must use the Bearer scheme'],
    ['wrong key', { authorization: 'Bearer not-the-key' }, INVALID_TOKEN, 'Invalid API key'],
    ['empty token', { authorization: 'Bearer ' }, INVALID_TOKEN, 'Invalid API key'],
    ['key with a suffix', { authorization: `Bearer ${TEST_KEY}x` }, INVALID_TOKEN, 'Invalid API key']
  ]
  for (const [what, headers, challenge, message] of cases) {
    for (const [method, url] of [['GET', '/v1/pets'], ['POST', '/v1/pets'], ['GET', '/v1/pets/1'], ['GET', '/v1/nothing-here'], ['DELETE', '/v1/pets']] as const) {
      const res = await app.inject({ method, url, headers })
      t.equal(res.statusCode, 401, `${what}: ${method} ${url}`)
      t.equal(res.headers['www-authenticate'], challenge, what)
      t.equal(res.headers['content-type'], 'application/json; charset=utf-8', what)
      t.same(res.json(), errorBody('unauthorized', message, 401), what)
    }
  }
})

t.test('the scheme name is case-insensitive', async (t) => {
  const app = await build(t)
  for (const scheme of ['Bearer', 'bearer', 'BEARER']) {
    const res = await app.inject({ url: '/v1/pets', headers: { authorization: `${scheme} ${TEST_KEY}` } })
    t.equal(res.statusCode, 200, scheme)
  }
})

t.test('keys from the database are accepted, and only while they exist', async (t) => {
  const app = await build(t, { apiKeys: [] })
  const { key } = await createApiKey(app.db, { name: 'test', scopes: app.apiKeys.everyScope })
  t.match(key, /^pst_[A-Za-z0-9_-]{43}$/)
  await app.apiKeys.sync(app)
  const ok = await app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${key}` } })
  t.equal(ok.statusCode, 200)
  const stored = await app.db.selectFrom('api_keys').selectAll().execute()
  t.equal(stored.length, 1)
  t.not(stored[0]!.key_hash, key, 'the key itself is not stored')
  t.notOk(Object.values(stored[0]!).map(String).join(' ').includes(key.slice(10)), 'no part of the secret beyond the prefix is stored')
  await app.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).execute()
  await app.apiKeys.sync(app)
  const revoked = await app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${key}` } })
  t.equal(revoked.statusCode, 401)
})

t.test('docs, the document and health checks need no key', async (t) => {
  const app = await build(t)
  for (const url of ['/docs', '/docs/json', '/openapi.json', '/openapi.yaml', '/healthz', '/readyz']) {
    const res = await app.inject({ url })
    t.ok(res.statusCode === 200 || res.statusCode === 302, `${url} answers ${res.statusCode}`)
  }
})
