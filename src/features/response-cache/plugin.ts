/**
 * The response cache (./cache.ts), as the `responseCache` decorator, unless its size is 0:
 * on SQLite and on PostgreSQL, where several instances write, since the data version
 * proves a kept answer fresh on both (../../database/data-version.ts).
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { dataVersionOf } from '../../database/data-version.ts'
import { ResponseCache } from './cache.ts'

declare module 'fastify' {
  interface FastifyInstance {
    responseCache: ResponseCache | undefined
  }
}

export default fp(async function responseCache (app: FastifyInstance, options: { maxBytes: number }) {
  const reader = dataVersionOf(app.db)
  app.decorate('responseCache', reader === undefined || options.maxBytes === 0 ? undefined : new ResponseCache(reader, options.maxBytes))
}, { name: 'response-cache', dependencies: ['database'] })
