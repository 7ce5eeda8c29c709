import t from 'tap'
import { AUTH, build, errorBody, TEST_KEY } from '../helper.ts'

const OTHER_KEY = 'second-test-key-not-a-secret-00'

t.test('every answer carries RateLimit headers; past the limit, 429 rate_limited', async (t) => {
  const app = await build(t, { apiKeys: [TEST_KEY, OTHER_KEY], rateLimit: { perKey: 3, anonymous: 2 } })
  for (let i = 1; i <= 3; i++) {
    const res = await app.inject({ url: '/v1/pets', headers: AUTH })
    t.equal(res.statusCode, 200)
    t.equal(res.headers['ratelimit-limit'], '3')
    t.equal(res.headers['ratelimit-remaining'], String(3 - i))
    t.equal(res.headers['ratelimit-reset'], '60')
  }
  const limited = await app.inject({ url: '/v1/pets', headers: AUTH })
  t.equal(limited.statusCode, 429)
  t.equal(limited.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(limited.headers['retry-after'], '60')
  t.equal(limited.headers['ratelimit-remaining'], '0')
  t.same(limited.json(), errorBody('rate_limited', 'Rate limit of 3 requests per 60 s exceeded; retry in 1 minute', 429))

  const other = await app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${OTHER_KEY}` } })
  t.equal(other.statusCode, 200, 'each key has its own budget')
})

t.test('requests without a valid key share their address budget, so key guessing is throttled', async (t) => {
  const app = await build(t, { rateLimit: { perKey: 100, anonymous: 2 } })
  for (const authorization of ['Bearer guess-1', 'Bearer guess-2']) {
    const res = await app.inject({ url: '/v1/pets', headers: { authorization } })
    t.equal(res.statusCode, 401)
    t.equal(res.headers['ratelimit-limit'], '2')
  }
  const third = await app.inject({ url: '/v1/pets', headers: { authorization: 'Bearer guess-3' } })
  t.equal(third.statusCode, 429)
  t.same(third.json(), errorBody('rate_limited', 'Rate limit of 2 requests per 60 s exceeded; retry in 1 minute', 429))
  const none = await app.inject({ url: '/v1/pets' })
  t.equal(none.statusCode, 429, 'no key at all counts against the address too')
  const valid = await app.inject({ url: '/v1/pets', headers: AUTH })
  t.equal(valid.statusCode, 200, 'a valid key is not held back by its address')
})

t.test('RATE_LIMIT_MAX=0 lifts the per-key limit but keeps the one on addresses', async (t) => {
  const app = await build(t, { rateLimit: { perKey: 0, anonymous: 1 } })
  for (let i = 0; i < 5; i++) {
    t.equal((await app.inject({ url: '/v1/pets', headers: AUTH })).statusCode, 200)
  }
  t.equal((await app.inject({ url: '/v1/pets' })).statusCode, 401)
  t.equal((await app.inject({ url: '/v1/pets' })).statusCode, 429)
})

t.test('docs and health checks are not rate limited', async (t) => {
  const app = await build(t, { rateLimit: { perKey: 1, anonymous: 1 } })
  for (let i = 0; i < 3; i++) {
    for (const url of ['/healthz', '/readyz', '/openapi.json']) {
      const res = await app.inject({ url })
      t.equal(res.statusCode, 200, url)
      t.equal(res.headers['ratelimit-limit'], undefined, url)
    }
  }
})
