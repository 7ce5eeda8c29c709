/**
 * What a key may read of the feed: an event carries its resource's data, so it is read
 * under that resource's scope (its webhook's `x-read-scope`, such as `pets:read`) as well
 * as `events:read`. Otherwise the feed would show a key what `getPet` or `getOrder` refuses
 * it.
 *
 * A wrapper around the feed's reads, outside the response cache: a `type` filter the key
 * may not read is a 403 naming the scope; otherwise, where the key may not read every
 * type, the handler is told which it may (`request.readableEvents`), and so is the cache's
 * key (`request.answerVariant`), so that no answer kept for one key reaches another that
 * may read less.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { HandlerWrapper } from '../../contract/wrapper.ts'
import type { ApiError } from '../../http/error-codes.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The event types this request's key may read; undefined: every type. */
    readableEvents: readonly string[] | undefined
  }
}

/** The operations that answer events. */
const FEED_READS = new Set(['listEvents', 'getEvent'])

/** The 403 for a key reading an event of `type`, naming the scope it lacks (the key check's, `app.auth`). */
export function unreadableEvent (app: FastifyInstance, request: FastifyRequest, type: string): ApiError {
  return app.auth.authorize(request, [[app.events.readScopes.get(type)!]], `for ${type} events`)!
}

export const readableEvents: HandlerWrapper = (app, operation, handler) => {
  if (!FEED_READS.has(operation.operationId)) return handler
  const scopes = [...app.events.readScopes]
  return async function readableEventsHandler (this: FastifyInstance, request: FastifyRequest, reply) {
    const readable = scopes.filter(([, scope]) => app.auth.may(request, scope)).map(([type]) => type)
    if (readable.length < scopes.length) {
      const { type } = request.query as { type?: string }
      if (type !== undefined && !readable.includes(type)) throw unreadableEvent(app, request, type)
      request.readableEvents = readable
      request.answerVariant = `#types=${readable.join(',')}`
    }
    return handler.call(this, request, reply)
  }
}
