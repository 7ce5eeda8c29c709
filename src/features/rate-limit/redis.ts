/**
 * An optional Redis connection, as the `redis` decorator (undefined without REDIS_URL).
 * Several instances behind one load balancer share their rate-limit counts through it.
 * The client library is loaded only when a URL is given.
 *
 * A stalled Redis holds a request up by one command timeout at most: a command not
 * answered in time fails, and the connection it waited on, silent for as long, is dropped
 * at the same moment. The connection is then not `ready`, so the rate limits count in
 * memory without asking Redis (./plugin.ts) until a new connection has proved that
 * Redis answers again: the reconnection is the probe, and no request waits on it.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { requireDriver } from '../../tracing/require-driver.ts'

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis | undefined
  }
}

export interface RedisOptions {
  url?: string
  /** A command (or a new connection's handshake) not answered within this fails. */
  commandTimeoutMs: number
}

/**
 * Pause before each new connection after one is lost: it grows by this much per failed
 * attempt, so a Redis that keeps failing is tried less often, and one that is back is
 * shared again within about RECONNECT_MAX_MS.
 */
const RECONNECT_STEP_MS = 250
const RECONNECT_MAX_MS = 2000
/**
 * A TCP connect that does not finish by then is given up and tried again later, as
 * PostgreSQL's is (a black-holed address never refuses; the default waits 10 s).
 */
const CONNECT_TIMEOUT_MS = 2000

export default fp(async function redis (app: FastifyInstance, options: RedisOptions) {
  if (options.url === undefined) {
    app.decorate('redis', undefined)
    return
  }
  // A wrong REDIS_URL stops the start; once connected, ioredis reconnects by itself.
  let starting = true
  let closing = false
  let failing = false
  let lastError: Error | undefined
  const { Redis } = requireDriver<typeof import('ioredis')>('ioredis')
  const client = new Redis(options.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: options.commandTimeoutMs,
    // No byte from Redis for that long while a command waits: the connection is stalled
    // (a frozen server, a black-holed network, which TCP keepalive would notice only after
    // minutes), so ioredis drops it and reconnects. Kept, such a connection would never
    // recover: commands lost on it leave every later answer matched to the wrong command.
    socketTimeout: options.commandTimeoutMs,
    // Commands still waiting on a lost connection fail at once rather than waiting for a
    // new one: they are then counted in memory, and never replayed to Redis later.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (attempt) => starting ? null : Math.min(attempt * RECONNECT_STEP_MS, RECONNECT_MAX_MS)
  })
  client.on('error', (error: Error) => { lastError = error })
  // Once when Redis starts failing and once when it is back, not for every attempt.
  client.on('close', () => {
    if (starting || closing || failing) return
    failing = true
    app.log.warn({ err: lastError }, 'Redis is failing: rate limits count in this instance\'s memory until it answers again')
  })
  client.on('ready', () => {
    lastError = undefined
    if (!failing) return
    failing = false
    app.log.info('Redis answers again: rate limits are shared again')
  })
  try {
    await client.connect()
    await client.ping()
  } catch (error) {
    client.disconnect()
    throw new Error(`REDIS_URL: cannot reach Redis: ${(lastError ?? error as Error).message}`)
  }
  starting = false
  app.decorate('redis', client)
  app.addHook('onClose', async () => {
    closing = true
    // QUIT needs a live connection; a lost one is just dropped.
    await client.quit().catch(() => client.disconnect())
  })
}, { name: 'redis' })
