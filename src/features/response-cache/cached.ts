/**
 * The response cache (./cache.ts) around reads, as wrappers the wiring applies
 * (../../contract/wrapper.ts): on SQLite around the deadline, since a hit waits on nothing
 * but the end of its turn of the event loop (the data version is read once per turn) and a
 * stalled database leaves it served; on PostgreSQL within it, since each lookup reads the
 * data version with a query that may wait on a stalled database.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { parameterNames, type HandlerWrapper } from '../../contract/wrapper.ts'
import { entityTag } from '../../http/conditional.ts'
import { JSON_MEDIA_TYPE } from '../../http/media-type.ts'
import { flat } from './cache.ts'
import { cacheKeyOf } from './key.ts'
import { recordReads } from '../../database/row-reads.ts'

/** The headers of most answers, shared: an empty object each would cost every entry. */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({})

/**
 * The handler of a read, through the response cache: a kept answer is sent as it was,
 * headers and entity tag included (the ETag hook then has nothing to compute); otherwise
 * the handler runs and its 200 is kept (from the key's second request on, and once the
 * cache is full one time in sixteen: see ResponseCache.admits), keyed by the operation
 * and its validated parameters, which is all a read depends on (the key check and
 * validation have run before, on every request) but for what a feature names as the
 * request's `answerVariant` (./plugin.ts), with the rows the handler tells it read
 * (../../database/row-reads.ts).
 */
const cachedReads = (waitsOnDatabase: boolean): HandlerWrapper => (app, operation, handler) => {
  const cache = app.responseCache
  if (operation.method !== 'GET' || cache === undefined || cache.waitsOnDatabase !== waitsOnDatabase) return handler
  const keyOf = cacheKeyOf(operation.operationId, parameterNames(operation, 'params'), parameterNames(operation, 'querystring'))
  return async function cachedHandler (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const lookup = await cache.version()
    const key = keyOf(request.params, request.query) + request.answerVariant
    const hit = cache.get(key, lookup)
    if (hit !== undefined) {
      reply.headers(hit.headers).header('etag', hit.etag)
      return hit.body
    }
    if (!cache.admits(key)) return handler.call(this, request, reply)
    const before = new Set(Object.keys(reply.getHeaders()))
    const reads = recordReads(reply)
    const payload = await handler.call(this, request, reply)
    if (reply.statusCode !== 200) return payload
    // Serialized here as Fastify would: text as it is, anything else by the route's schema.
    const text = typeof payload === 'string' || Buffer.isBuffer(payload)
    const body = flat(text ? String(payload) : reply.serialize(payload) as string)
    if (!reply.hasHeader('content-type')) reply.type(text ? 'text/plain; charset=utf-8' : JSON_MEDIA_TYPE)
    const etag = entityTag(body)
    const set = Object.entries(reply.getHeaders()).filter(([name]) => !before.has(name))
    const headers = set.length === 0 ? NO_HEADERS : Object.fromEntries(set.map(([name, value]) => [name, String(value)]))
    cache.keep(key, lookup, { body, etag, headers }, reads)
    reply.header('etag', etag)
    return body
  }
}

/** Around the deadline: where the data version is read in this process (SQLite). */
export const cachedReadsAroundDeadline = cachedReads(false)
/** Within the deadline: where reading the data version waits on the database (PostgreSQL). */
export const cachedReadsWithinDeadline = cachedReads(true)
