/**
 * The response cache (./cache.ts), as the `responseCache` decorator, unless its size is 0:
 * on SQLite and on PostgreSQL, where several instances write, since the data version and
 * the changed rows prove a kept answer fresh on both (../../database/data-version.ts).
 *
 * And, cache or none, the changed rows' upkeep: the triggers record every change, and what
 * is older than any reader needs is deleted every few seconds (../../database/row-changes-prune.ts).
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { dataVersionOf } from '../../database/data-version.ts'
import { deleteOldRowChanges } from '../../database/row-changes-prune.ts'
import { ResponseCache } from './cache.ts'

declare module 'fastify' {
  interface FastifyInstance {
    responseCache: ResponseCache | undefined
  }
  interface FastifyRequest {
    /**
     * What a read's answer depends on besides its operation and parameters, as part of its
     * cache key: '' for most; the feed's, the event types its key may read, when not all
     * (../events/readable.ts). Starts with `#`, which no encoded parameter holds.
     */
    answerVariant: string
  }
}

export interface ResponseCacheOptions {
  maxBytes: number
  /** How often the changed rows older than any reader needs are deleted. */
  pruneIntervalMs: number
}

export default fp(async function responseCache (app: FastifyInstance, options: ResponseCacheOptions) {
  const reader = dataVersionOf(app.db)
  app.decorate('responseCache', reader === undefined || options.maxBytes === 0 ? undefined : new ResponseCache(reader, options.maxBytes))
  app.decorateRequest('answerVariant', '')

  let pruning: Promise<unknown> = Promise.resolve()
  const prune = setInterval(() => {
    pruning = deleteOldRowChanges(app.db).catch((error: unknown) => {
      // A busy or unreachable database: the next interval tries again.
      app.log.warn({ err: error }, 'old changed rows could not be deleted; trying again soon')
    })
  }, options.pruneIntervalMs).unref()
  app.addHook('onClose', async () => {
    clearInterval(prune)
    await pruning
  })
}, { name: 'response-cache', dependencies: ['database'] })
