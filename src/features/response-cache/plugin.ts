/**
 * The response cache (./cache.ts), as the `responseCache` decorator: on SQLite,
 * unless its size is 0; never on PostgreSQL, where several instances write and a read must
 * stay exactly as fresh as without a cache, which no cheap check can prove there.
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
  const readVersion = dataVersionOf(app.db)
  app.decorate('responseCache', readVersion === undefined || options.maxBytes === 0 ? undefined : new ResponseCache(readVersion, options.maxBytes))
}, { name: 'response-cache', dependencies: ['database'] })
