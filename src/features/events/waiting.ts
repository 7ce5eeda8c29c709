/**
 * `wait` on a read whose document declares it (the feed): an empty page waits up to that
 * many seconds for an event after its cursor, and is read again as soon as one may have
 * committed (./signal.ts), answering then; when the time is up, or the service stops, the
 * empty page is the answer. A wrapper around the deadline (../../contract/wrapper.ts): each
 * read is bounded as any read is, the time between them is not, so a wait is never a 503.
 *
 * Waiting requests are bounded in number: one beyond `maxWaiting` is a 503 with
 * Retry-After rather than a held connection; one beyond its API key's share (a tenth of
 * them), a 429, so that no key can hold every place.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { parameterNames, type HandlerWrapper } from '../../contract/wrapper.ts'
import { ApiError } from '../../http/error-codes.ts'

/** How soon a reader refused for too many waiting may come back. */
const RETRY_AFTER_SECONDS = 1

/** What an empty page is, as the feed's handler answers it. */
const EMPTY_PAGE = '[]'

export const waitingReads: HandlerWrapper = (app, operation, handler) => {
  if (operation.method !== 'GET' || !parameterNames(operation, 'querystring').includes('wait')) return handler
  return async function waitingHandler (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const seconds = Number((request.query as { wait?: number }).wait ?? 0)
    const { signal } = app.events
    let seen = signal.generation
    // Each read starts from the reply as it came: the response cache keeps only the headers
    // its read sets, which a read before it would otherwise have set already.
    const headersBefore = new Set(Object.keys(reply.getHeaders()))
    const read = () => {
      for (const name of Object.keys(reply.getHeaders())) if (!headersBefore.has(name)) reply.removeHeader(name)
      return handler.call(this, request, reply)
    }
    let page: unknown = await read()
    if (seconds === 0 || page !== EMPTY_PAGE || reply.statusCode !== 200) return page
    const release = app.events.enterWaiting(app.auth.key(request)?.hash ?? '')
    if (release === 'full') {
      throw new ApiError('unavailable', `Too many readers are waiting for events (${app.events.maxWaiting}); retry after the Retry-After delay, or read without wait`,
        { 'retry-after': String(RETRY_AFTER_SECONDS) })
    }
    if (release === 'owner') {
      throw new ApiError('rate_limited', `This API key has ${app.events.maxWaitingPerKey} readers waiting for events already, the most one key may; retry after the Retry-After delay, or read without wait`,
        { 'retry-after': String(RETRY_AFTER_SECONDS) })
    }
    try {
      const until = performance.now() + seconds * 1000
      while (page === EMPTY_PAGE && reply.statusCode === 200 && !signal.closed && !request.raw.destroyed) {
        const left = until - performance.now()
        if (left <= 0) break
        await signal.after(seen, left)
        // Nothing new by the end of the wait, or the service stopping: the empty page it is.
        if (signal.generation === seen || signal.closed) break
        seen = signal.generation
        page = await read()
      }
    } finally {
      release()
    }
    return page
  }
}
