/**
 * An optional Redis connection, as the `redis` decorator (undefined without REDIS_URL).
 * Several instances behind one load balancer share their rate-limit counts through it.
 * The client library is loaded only when a URL is given.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis | undefined
  }
}

export default fp(async function redis (app: FastifyInstance, options: { url?: string }) {
  if (options.url === undefined) {
    app.decorate('redis', undefined)
    return
  }
  // A wrong REDIS_URL stops the start; once connected, ioredis reconnects by itself.
  let starting = true
  let lastError: Error | undefined
  const { Redis } = await import('ioredis')
  const client = new Redis(options.url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => starting ? null : Math.min(attempt * 200, 2000)
  })
  client.on('error', (error: Error) => {
    lastError = error
    if (!starting) app.log.warn({ err: error }, 'Redis connection error')
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
    // QUIT needs a live connection; a lost one is just dropped.
    await client.quit().catch(() => client.disconnect())
  })
}, { name: 'redis' })
