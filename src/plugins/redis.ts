/**
 * An optional Redis connection, as the `redis` decorator (undefined without REDIS_URL).
 * Several instances behind one load balancer share their rate-limit counts through it.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { Redis } from 'ioredis'

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
  // Fail fast on a wrong URL at start; afterwards ioredis reconnects by itself.
  const client = new Redis(options.url, { lazyConnect: true, maxRetriesPerRequest: 1, enableOfflineQueue: false })
  await client.connect()
  app.decorate('redis', client)
  app.addHook('onClose', async () => { await client.quit() })
}, { name: 'redis' })
