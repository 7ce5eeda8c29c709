import type { InjectOptions } from 'fastify'
import t from 'tap'
import { AUTH, build, JSON_HEADERS, TEST_KEY } from '../../helpers/app.ts'
import { errorBody } from '../../helpers/answers.ts'
import { acceptedPath } from '../../helpers/methods.ts'
import { apiDocument } from '../../../src/contract/document.ts'

const OTHER_KEY = 'second-test-key-not-a-secret-00'
const ADDRESS_LIMITED = (limit: number) => errorBody('rate_limited', `Rate limit of ${limit} requests per 60 s without a valid key from this address exceeded; retry in 60 s`, 429)

t.test('every answer carries RateLimit headers; past the key\'s limit, 429 rate_limited', async (t) => {
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
  t.same(limited.json(), errorBody('rate_limited', 'Rate limit of 3 requests per 60 s for this key exceeded; retry in 60 s', 429))

  const other = await app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${OTHER_KEY}` } })
  t.equal(other.statusCode, 200, 'each key has its own budget')
})

t.test('every operation the document declares counts against the key\'s limit, and past it gets 429', async (t) => {
  const operations = [...apiDocument.operations.values()]
  const app = await build(t, { rateLimit: { perKey: operations.length, anonymous: 1 } })
  const send = ({ method, url }: typeof operations[number]) => {
    const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined
    return app.inject({ method: method as InjectOptions['method'], url: acceptedPath(url), headers: body === undefined ? AUTH : JSON_HEADERS, payload: body })
  }
  for (const [i, operation] of operations.entries()) {
    const res = await send(operation)
    t.equal(res.headers['ratelimit-remaining'], String(operations.length - i - 1), `${operation.operationId} counts`)
  }
  for (const operation of operations) {
    const limited = await send(operation)
    t.equal(limited.statusCode, 429, operation.operationId)
    t.equal(limited.headers['retry-after'], '60')
    t.same(limited.json(), errorBody('rate_limited', `Rate limit of ${operations.length} requests per 60 s for this key exceeded; retry in 60 s`, 429))
  }
})

t.test('failed key checks count against the address; past the allowance even the right key gets 429', async (t) => {
  const app = await build(t, { rateLimit: { perKey: 100, anonymous: 2 } })
  for (const [i, authorization] of ['Bearer guess-1', 'Bearer guess-2'].entries()) {
    const res = await app.inject({ url: '/v1/pets', headers: { authorization } })
    t.equal(res.statusCode, 401)
    t.equal(res.headers['ratelimit-limit'], '2')
    t.equal(res.headers['ratelimit-remaining'], String(1 - i))
  }
  for (const headers of [{ authorization: 'Bearer guess-3' }, {}, AUTH]) {
    const res = await app.inject({ url: '/v1/pets', headers })
    t.equal(res.statusCode, 429, 'refused before any key is checked, so the right key tells nothing either')
    t.equal(res.headers['retry-after'], '60')
    t.equal(res.headers['www-authenticate'], undefined)
    t.same(res.json(), ADDRESS_LIMITED(2))
  }
  const elsewhere = await app.inject({ url: '/v1/pets', headers: { authorization: 'Bearer guess-4' }, remoteAddress: '10.0.0.2' })
  t.equal(elsewhere.statusCode, 401, 'other addresses are not affected')
  const validElsewhere = await app.inject({ url: '/v1/pets', headers: AUTH, remoteAddress: '10.0.0.3' })
  t.equal(validElsewhere.statusCode, 200)
})

t.test('unknown paths under /v1 count failed key checks too', async (t) => {
  const app = await build(t, { rateLimit: { perKey: 100, anonymous: 2 } })
  const statuses = []
  for (const url of ['/v1/zzz', '/v1/pets/1/x', '/v1/zzz']) {
    statuses.push((await app.inject({ url, headers: { authorization: 'Bearer guess' } })).statusCode)
  }
  t.same(statuses, [401, 401, 429])
  const unknown = await app.inject({ url: '/v1/zzz', headers: AUTH })
  t.equal(unknown.statusCode, 429)
})

t.test('requests with a valid key never consume the address allowance', async (t) => {
  const app = await build(t, { rateLimit: { perKey: 100, anonymous: 1 } })
  for (let i = 0; i < 5; i++) t.equal((await app.inject({ url: '/v1/pets', headers: AUTH })).statusCode, 200)
  t.equal((await app.inject({ url: '/v1/pets' })).statusCode, 401, 'the first failure is still within the allowance')
  t.equal((await app.inject({ url: '/v1/pets' })).statusCode, 429)
})

t.test('IPv6 clients count per /64; IPv4-mapped addresses as IPv4', async (t) => {
  const app = await build(t, { rateLimit: { perKey: 100, anonymous: 1 } })
  const status = async (remoteAddress: string) => (await app.inject({ url: '/v1/pets', remoteAddress })).statusCode
  t.equal(await status('2001:db8:1:2::1'), 401)
  t.equal(await status('2001:db8:1:2:ffff:ffff:ffff:ffff'), 429, 'another address of the same /64')
  t.equal(await status('2001:db8:1:3::1'), 401, 'the next /64 is another client')
  t.equal(await status('10.0.0.9'), 401)
  t.equal(await status('::ffff:10.0.0.9'), 429, 'the same IPv4 client')
})

t.test('RATE_LIMIT_MAX=0 lifts the per-key limit but keeps the one on addresses', async (t) => {
  const app = await build(t, { rateLimit: { perKey: 0, anonymous: 1 } })
  for (let i = 0; i < 5; i++) {
    const res = await app.inject({ url: '/v1/pets', headers: AUTH })
    t.equal(res.statusCode, 200)
    t.equal(res.headers['ratelimit-limit'], undefined, 'no limit, so no limit headers')
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
