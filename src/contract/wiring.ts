/**
 * The OpenAPI document wires the routes: every operation is registered from a map of
 * handlers keyed by operationId, and everything around it comes from the document itself:
 * - the path prefix from the first server (`/v1`);
 * - method, URL and JSON schemas from the operation;
 * - the bearer check from `security`, with the rate limits around it (see `guard`);
 * - deprecation headers and 410 from `deprecated`/`x-deprecated-*`, `API-Stability` from
 *   `x-stability`, ETags and caching directives (./operation-hooks.ts);
 * - safe retries for operations that declare `Idempotency-Key` (../features/idempotency/plugin.ts);
 * - the response cache for reads, where the database allows one (../features/response-cache/plugin.ts);
 * - 405 with `Allow` for the document's paths asked with another method, and the Error
 *   body for unknown paths under the prefix.
 * The start fails when an operation has no handler or a handler no operation, so adding
 * an operation is: edit the document, `npm run codegen`, write one handler.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, HTTPMethods, RouteHandlerMethod } from 'fastify'
import { entityTag } from '../http/conditional.ts'
import { ApiError } from '../http/error-codes.ts'
import type { ApiDocument, JsonObject, Operation } from './document.ts'
import { withDeadline } from './deadline.ts'
import { operationHooks, type Clock } from './operation-hooks.ts'
import { routeSchema } from './route-schema.ts'
import { needsBearerKey } from './operation-security.ts'
import { notFound } from '../http/error-handler.ts'
import { flat, type ResponseCache } from '../features/response-cache/cache.ts'
import { cacheKeyOf, type CacheKeyOf } from '../features/response-cache/key.ts'
import { requestHash } from '../features/idempotency/plugin.ts'
import { JSON_MEDIA_TYPE } from '../http/media-type.ts'

type Handler = RouteHandlerMethod<any, any, any, any>

export interface SpecRoutesOptions {
  document: ApiDocument
  handlers: Readonly<Record<string, Handler>>
  now: Clock
  /** An operation not answered within this (a stalled database) gets 503 (./deadline.ts). */
  responseTimeoutMs: number
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on routes anyone may call (an operation whose `security` is empty). */
    public?: boolean
  }
}

/** Throws, naming them, when operations and handlers do not pair up one to one. */
export function checkHandlers (document: ApiDocument, handlers: SpecRoutesOptions['handlers']): void {
  const missing = [...document.operations.keys()].filter((id) => typeof handlers[id] !== 'function')
  const extra = Object.keys(handlers).filter((id) => !document.operations.has(id))
  const problems = []
  if (missing.length > 0) problems.push(`no handler for operation ${missing.join(', ')}`)
  if (extra.length > 0) problems.push(`handler ${extra.join(', ')} has no operation in the document`)
  if (problems.length > 0) throw new Error(`${document.source}: ${problems.join('; ')}`)
}

const METHODS: HTTPMethods[] = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT', 'OPTIONS']

/** 405 for a known path asked with a method it does not serve (RFC 9110 section 15.5.6). */
function methodNotAllowed (scope: FastifyInstance, document: ApiDocument): void {
  const served = new Map<string, Set<string>>()
  for (const { url, method } of document.operations.values()) served.set(url, (served.get(url) ?? new Set()).add(method))
  for (const [url, methods] of served) {
    // Fastify answers HEAD wherever it answers GET.
    if (methods.has('GET')) methods.add('HEAD')
    const allow = [...methods].sort().join(', ')
    const refusal = (method: string) => new ApiError('method_not_allowed', `Method ${method} is not allowed on ${scope.prefix}${url}`, { allow })
    scope.route({
      method: METHODS.filter((method) => !methods.has(method)),
      url,
      // Refused before any body is read, so a bad body cannot turn the 405 into a 400.
      preParsing: async (request) => { throw refusal(request.method) },
      handler: async (request) => { throw refusal(request.method) }
    })
  }
}

/** Whether an operation declares the `Idempotency-Key` header. */
function takesIdempotencyKey (document: ApiDocument, op: Operation): boolean {
  const parameters = document.dereference(op.operation.parameters ?? []) as JsonObject[]
  return parameters.some((parameter) => parameter.in === 'header' && String(parameter.name).toLowerCase() === 'idempotency-key')
}

/**
 * The handler of a create that takes an Idempotency-Key: with a key, it runs once inside
 * the idempotency transaction, and its answer, serialized here, is kept with the record.
 */
function idempotent (app: FastifyInstance, operationId: string, handler: Handler): Handler {
  return async function idempotentHandler (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers['idempotency-key']
    if (typeof key !== 'string') return handler.call(this, request, reply)
    const answer = await app.idempotency.run(request, key, requestHash(operationId, request.body), async () => {
      const payload = await handler.call(this, request, reply)
      // The route's own serializer, for its status: JSON text.
      return { status: reply.statusCode, body: String(reply.serialize(payload)) }
    })
    if (answer.replayed) reply.header('idempotent-replayed', 'true')
    // JSON text already: sent as it is, like any handler's result, once this returns.
    reply.code(answer.status).type(JSON_MEDIA_TYPE)
    return answer.body
  }
}

/**
 * The handler of a read, through the response cache: a kept answer is sent as it was,
 * headers and entity tag included (the ETag hook then has nothing to compute); otherwise
 * the handler runs and its 200 is kept (from the key's second request on: see
 * ResponseCache.admits), keyed by the operation and its validated parameters, which is
 * all a read depends on (the key check and validation have run before, on every request).
 */
function cached (cache: ResponseCache, keyOf: CacheKeyOf, handler: Handler): Handler {
  return async function cachedHandler (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const version = cache.version()
    const key = keyOf(request.params, request.query)
    const hit = cache.get(key)
    if (hit !== undefined) {
      reply.headers(hit.headers).header('etag', hit.etag)
      return hit.body
    }
    if (!cache.admits(key)) return handler.call(this, request, reply)
    const before = new Set(Object.keys(reply.getHeaders()))
    const payload = await handler.call(this, request, reply)
    if (reply.statusCode !== 200) return payload
    // Serialized here as Fastify would: text as it is, anything else by the route's schema.
    const text = typeof payload === 'string' || Buffer.isBuffer(payload)
    const body = flat(text ? String(payload) : reply.serialize(payload) as string)
    if (!reply.hasHeader('content-type')) reply.type(text ? 'text/plain; charset=utf-8' : JSON_MEDIA_TYPE)
    const etag = entityTag(body)
    const headers = Object.fromEntries(Object.entries(reply.getHeaders())
      .filter(([name]) => !before.has(name)).map(([name, value]) => [name, String(value)]))
    cache.keep(key, version, { body, etag, headers })
    reply.header('etag', etag)
    return body
  }
}

/** The names of an object schema's properties: a route's path or query parameters. */
const namesOf = (schema: unknown) => Object.keys((schema as { properties?: object } | undefined)?.properties ?? {})

/**
 * The handler as registered: with idempotency for creates that take a key, the cache for
 * reads, and a deadline around whatever may wait on the database (a cache hit does not).
 */
function wrapped (app: FastifyInstance, document: ApiDocument, op: Operation, schema: FastifySchema, handler: Handler, deadlineMs: number): Handler {
  if (takesIdempotencyKey(document, op)) return withDeadline(idempotent(app, op.operationId, handler), deadlineMs)
  const bounded = withDeadline(handler, deadlineMs)
  if (op.method === 'GET' && app.responseCache !== undefined) {
    return cached(app.responseCache, cacheKeyOf(op.operationId, namesOf(schema.params), namesOf(schema.querystring)), bounded)
  }
  return bounded
}

export default async function specRoutes (app: FastifyInstance, { document, handlers, now, responseTimeoutMs }: SpecRoutesOptions) {
  checkHandlers(document, handlers)
  // Unknown paths and 405s follow the document-wide `security`; each operation its own.
  const openByDefault = !needsBearerKey(document, undefined)

  /**
   * Every request under the prefix, known path or not, before anything else about it:
   * an address over its allowance is refused before its key is even looked at; then the
   * key is checked, a failure counting against the address, a success against the key.
   */
  async function guard (request: FastifyRequest, reply: FastifyReply) {
    const { auth, rateLimits } = app
    await rateLimits.refuseBlockedAddress(request, reply)
    if (request.routeOptions.config.public ?? openByDefault) return rateLimits.countAddress(request, reply)
    const refusal = await auth.check(request, reply)
    if (refusal !== undefined) {
      await rateLimits.countAddress(request, reply)
      throw refusal
    }
    await rateLimits.countKey(request, reply, auth.keyHash(request)!)
  }

  await app.register(async function api (scope) {
    scope.addHook('onRequest', guard)
    scope.setNotFoundHandler(notFound)
    for (const op of document.operations.values()) {
      const schema = routeSchema(document, op.operationId)
      scope.route({
        method: op.method as HTTPMethods,
        url: op.url,
        schema,
        // statsId: metrics label the route by its operationId.
        config: { public: !needsBearerKey(document, op.operationId), statsId: op.operationId },
        ...operationHooks(op, scope.prefix, now),
        handler: wrapped(app, document, op, schema, handlers[op.operationId]!, responseTimeoutMs)
      })
    }
    methodNotAllowed(scope, document)
  }, { prefix: document.prefix })
}
