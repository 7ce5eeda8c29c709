/**
 * Redis that stalls, pauses or drops its connections, between the service and a real Redis
 * (test/helpers/fault-proxy.ts): every request is still answered at once, the limits hold in each
 * instance's memory meanwhile, and Redis is used again once it answers.
 */
import { randomBytes } from 'node:crypto'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { Redis } from 'ioredis'
import t, { type Test } from 'tap'
import { buildApp } from '../../../src/app.ts'
import { hashKey } from '../../../src/features/api-keys/key-material.ts'
import { faultProxy, type FaultProxy } from '../../helpers/fault-proxy.ts'
import { build } from '../../helpers/app.ts'
import { captureLog } from '../../helpers/log.ts'
import { errorBody } from '../../helpers/answers.ts'
import { until } from '../../helpers/until.ts'
import { REDIS_URL, redisSkipReason } from '../../helpers/services.ts'

const skip = await redisSkipReason()

/**
 * The command timeout here: longer than the default 200 ms, which a healthy round trip
 * through the proxy can exceed beside other test files, and would then read as a stall.
 */
const REDIS_COMMAND_TIMEOUT_MS = 1000
/** A stall holds a request one command timeout at most; the rest is room for a busy machine. */
const ANSWERED_WITHIN_MS = REDIS_COMMAND_TIMEOUT_MS + 2000
const FAILING = 'Redis is failing: rate limits count in this instance\'s memory until it answers again'
const BACK = 'Redis answers again: rate limits are shared again'
/** The commands the rate limiter sends; the connection's own handshake is not counted. */
const LIMITER_COMMANDS = new Set(['evalsha', 'eval', 'multi', 'get', 'pttl', 'exec'])

interface LogLine { level: number, msg: string, err?: { message: string } }

interface Setup {
  app: FastifyInstance
  proxy: FaultProxy
  /** Rate-limit counts read straight from Redis. */
  redis: Redis
  headers: { authorization: string }
  address: string
  keyCounter: string
  /** The log lines with this message. */
  logged: (message: string) => LogLine[]
  /** Rate-limiter commands the app has sent to Redis so far. */
  limiterCommands: () => number
  /** One request, answered within ANSWERED_WITHIN_MS. */
  request: (t: Test, options: InjectOptions) => Promise<LightMyRequestResponse>
}

async function setup (t: Test, perKey: number): Promise<Setup> {
  const proxy = await faultProxy(t, REDIS_URL)
  // A key and an address of this run's own, so parallel files sharing Redis count apart.
  const key = `redis-fault-${randomBytes(16).toString('hex')}`
  const address = `10.${randomBytes(3).join('.')}`
  const keyCounter = `petstore-rate-limit:key:${hashKey(key)}`
  const { stream, lines } = captureLog<LogLine>()
  const app = await build(t, {
    apiKeys: [key],
    redisUrl: proxy.through(REDIS_URL),
    rateLimit: { perKey, anonymous: 100 },
    // Loading and first runs of the code stall this process's event loop for a moment,
    // which the overload check would answer with 503; it is not what is tested here.
    pressure: { maxEventLoopDelayMs: 0 },
    redisCommandTimeoutMs: REDIS_COMMAND_TIMEOUT_MS,
    logger: { level: 'info', stream }
  })
  let sent = 0
  const sendCommand = app.redis!.sendCommand.bind(app.redis)
  app.redis!.sendCommand = (command, stream) => {
    if (LIMITER_COMMANDS.has(command.name)) sent++
    return sendCommand(command, stream)
  }
  const redis = new Redis(REDIS_URL)
  t.teardown(async () => {
    await redis.del(keyCounter, `petstore-rate-limit:address:${address}`)
    await redis.quit()
  })
  return {
    app,
    proxy,
    redis,
    headers: { authorization: `Bearer ${key}` },
    address,
    keyCounter,
    logged: (message) => lines.filter((line) => line.msg === message),
    limiterCommands: () => sent,
    async request (t, options) {
      const started = performance.now()
      const res = await app.inject({ url: '/v1/pets', remoteAddress: address, ...options })
      const ms = performance.now() - started
      t.ok(ms < ANSWERED_WITHIN_MS, `answered in ${Math.round(ms)} ms`)
      return res
    }
  }
}

function assertUnauthorized (t: Test, res: LightMyRequestResponse): void {
  t.equal(res.statusCode, 401)
  t.equal(res.headers['www-authenticate'], 'Bearer realm="petstore"')
  t.same(res.json(), errorBody('unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>', 401))
}

/** Redis is used again: soon a request counts there, not in this instance's memory. */
async function countedInRedisAgain (t: Test, { redis, headers, keyCounter, request }: Setup): Promise<void> {
  await until(async () => {
    const before = Number(await redis.get(keyCounter))
    t.equal((await request(t, { headers })).statusCode, 200)
    return Number(await redis.get(keyCounter)) === before + 1
  }, 'a request counted in Redis')
}

t.test('a stalled Redis delays no request: the limits count in memory until it answers again', { skip }, async (t) => {
  const { app, proxy, redis, headers, keyCounter, logged, limiterCommands, request } = await setup(t, 3)
  t.equal((await request(t, { headers })).statusCode, 200)
  t.equal(await redis.get(keyCounter), '1', 'counted in Redis')

  proxy.stall()
  // The first request waits one command timeout at most; it finds Redis stalled.
  t.equal((await request(t, { headers })).statusCode, 200)
  // app.inject never touches the network, so the event loop must turn for ioredis to see
  // the connection it dropped as closed.
  await until(() => app.redis!.status !== 'ready', 'the stalled connection dropped')
  const sentWhileStalled = limiterCommands()
  assertUnauthorized(t, await request(t, {}))
  for (let i = 0; i < 2; i++) t.equal((await request(t, { headers })).statusCode, 200)
  const limited = await request(t, { headers })
  t.equal(limited.statusCode, 429, 'the fourth request since the stall: the limit of 3 holds in memory')
  t.equal(limited.headers['retry-after'], '60')
  t.same(limited.json(), errorBody('rate_limited', 'Rate limit of 3 requests per 60 s for this key exceeded; retry in 60 s', 429))
  assertUnauthorized(t, await request(t, {}))
  t.equal(limiterCommands(), sentWhileStalled, 'after the first timeout, no request asks Redis')
  t.match(logged(FAILING), [{ level: 40, err: { message: `Socket timeout. Expecting data, but didn't receive any in ${REDIS_COMMAND_TIMEOUT_MS}ms.` } }], 'the failure is logged once, as a warning saying why')
  t.equal(logged(FAILING).length, 1)

  proxy.pass()
  await until(() => app.redis!.status === 'ready', 'a new connection to Redis')
  t.equal((await request(t, { headers })).statusCode, 200, 'Redis counts again, from its own count')
  t.equal(await redis.get(keyCounter), '2', 'counted in Redis, and nothing sent during the stall was replayed')
  t.equal(logged(FAILING).length, 1)
  t.match(logged(BACK), [{ level: 30 }], 'the return is logged once')
  t.equal(logged(BACK).length, 1)
})

/** Faults Redis recovers from by itself: each starts, requests go on, it ends (or ioredis reconnects). */
const PASSING_FAULTS: Array<[string, (proxy: FaultProxy) => void, (proxy: FaultProxy) => void]> = [
  ['a Redis that pauses, then answers late, delays no request', (proxy) => proxy.pause(), (proxy) => proxy.resume()],
  ['a Redis connection cut (a restart, a failover) fails no request, and ioredis reconnects', (proxy) => proxy.cut(), () => {}]
]

for (const [name, fault, end] of PASSING_FAULTS) {
  t.test(name, { skip }, async (t) => {
    const faulty = await setup(t, 1000)
    const { proxy, headers, logged, request } = faulty
    t.equal((await request(t, { headers })).statusCode, 200)
    fault(proxy)
    for (let i = 0; i < 3; i++) {
      t.equal((await request(t, { headers })).statusCode, 200)
      assertUnauthorized(t, await request(t, {}))
    }
    end(proxy)
    await countedInRedisAgain(t, faulty)
    t.equal(logged(FAILING).length, 1)
    t.equal(logged(BACK).length, 1)
  })
}

t.test('a Redis that is stalled at start stops the start, and soon', { skip }, async (t) => {
  const proxy = await faultProxy(t, REDIS_URL)
  proxy.stall()
  const started = performance.now()
  // Which of ioredis's two timeouts reports it first is its own business.
  await t.rejects(buildApp({ database: { url: ':memory:' }, redisUrl: proxy.through(REDIS_URL) }),
    { message: /^REDIS_URL: cannot reach Redis: (Command timed out|Socket timeout)/ })
  t.ok(performance.now() - started < ANSWERED_WITHIN_MS * 5, 'it does not wait for Redis for ever')
})

t.test('REDIS_COMMAND_TIMEOUT_MS sets both the command timeout and the silence that drops a connection', { skip }, async (t) => {
  const app = await build(t, { redisUrl: REDIS_URL, redisCommandTimeoutMs: 50 })
  t.equal(app.redis!.options.commandTimeout, 50)
  t.equal(app.redis!.options.socketTimeout, 50)
})
