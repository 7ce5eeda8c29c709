import { randomBytes } from 'node:crypto'
import { Redis } from 'ioredis'
import t from 'tap'
import { buildApp } from '../../../src/app.ts'
import { hashKey } from '../../../src/features/api-keys/key-material.ts'
import { build, TEST_KEY } from '../../helpers/app.ts'
import { REDIS_URL, redisSkipReason } from '../../helpers/services.ts'

const skip = await redisSkipReason()
// Longer than the default 200 ms, which a busy machine's round trip to Redis can exceed: the
// request would then count in memory, and the instances would not share the count.
const redisCommandTimeoutMs = 1000

t.test('with REDIS_URL, instances share one budget per key', { skip }, async (t) => {
  // A key of its own, so this run's counters are its own; they are deleted afterwards.
  const key = `redis-test-${randomBytes(16).toString('hex')}`
  const options = { database: { url: ':memory:' }, apiKeys: [key], redisUrl: REDIS_URL, redisCommandTimeoutMs, rateLimit: { perKey: 3, anonymous: 60 } }
  const first = await build(t, options)
  const second = await build(t, options)
  const redis = new Redis(REDIS_URL)
  t.teardown(async () => {
    const counters = await redis.keys(`petstore-rate-limit:*${hashKey(key)}*`)
    if (counters.length > 0) await redis.del(...counters)
    await redis.quit()
  })
  const headers = { authorization: `Bearer ${key}` }
  const statuses = []
  for (const app of [first, second, first, second]) {
    statuses.push((await app.inject({ url: '/v1/pets', headers })).statusCode)
  }
  t.same(statuses, [200, 200, 200, 429], 'the fourth request is over the shared limit of 3')
  t.ok((await redis.keys(`petstore-rate-limit:*${hashKey(key)}*`)).length > 0, 'the counter lives in Redis')
})

t.test('with REDIS_URL, instances share each address\'s allowance of failed key checks', { skip }, async (t) => {
  // An address of its own, so this run's counters are its own; they are deleted afterwards.
  const address = `10.${randomBytes(3).join('.')}`
  const options = { database: { url: ':memory:' }, apiKeys: [TEST_KEY], redisUrl: REDIS_URL, redisCommandTimeoutMs, rateLimit: { perKey: 100, anonymous: 2 } }
  const first = await build(t, options)
  const second = await build(t, options)
  const redis = new Redis(REDIS_URL)
  t.teardown(async () => {
    await redis.del(`petstore-rate-limit:address:${address}`)
    await redis.quit()
  })
  const statuses = []
  for (const app of [first, second, first]) {
    statuses.push((await app.inject({ url: '/v1/pets', headers: { authorization: 'Bearer guess' }, remoteAddress: address })).statusCode)
  }
  statuses.push((await second.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${TEST_KEY}` }, remoteAddress: address })).statusCode)
  t.same(statuses, [401, 401, 429, 429], 'the third failure, on either instance, is over the shared allowance; then even the right key waits')
})

t.test('when Redis goes away, each instance goes on counting in its own memory', { skip }, async (t) => {
  const key = `redis-test-${randomBytes(16).toString('hex')}`
  const app = await build(t, { database: { url: ':memory:' }, apiKeys: [key], redisUrl: REDIS_URL, rateLimit: { perKey: 2, anonymous: 60 } })
  app.redis!.disconnect(false)
  const headers = { authorization: `Bearer ${key}` }
  const statuses = []
  for (let i = 0; i < 3; i++) statuses.push((await app.inject({ url: '/v1/pets', headers })).statusCode)
  t.same(statuses, [200, 200, 429], 'the limit still holds, and nothing fails')
})

t.test('an unreachable REDIS_URL stops the start', async (t) => {
  await t.rejects(buildApp({ database: { url: ':memory:' }, redisUrl: 'redis://127.0.0.1:1' }),
    { message: 'REDIS_URL: cannot reach Redis: connect ECONNREFUSED 127.0.0.1:1' })
})
