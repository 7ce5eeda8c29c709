/**
 * The OpenAPI document wires the routes: every operation is registered from a map of
 * handlers keyed by operationId, and everything around it comes from the document itself:
 * - the path prefix from the first server (`/v1`);
 * - method, URL and JSON schemas from the operation;
 * - the bearer check from `security`, with the rate limits around it (see `guard`);
 * - deprecation headers and 410 from `deprecated`/`x-deprecated-*`, `API-Stability` from
 *   `x-stability`, ETags and caching directives (./operation-hooks.ts);
 * - a deadline, and what features put around the handlers (./wrapper.ts): safe retries
 *   for operations that declare `Idempotency-Key`, the response cache for reads;
 * - 405 with `Allow` for the document's paths asked with another method, and the Error
 *   body for unknown paths under the prefix.
 * The start fails when an operation has no handler or a handler no operation, so adding
 * an operation is: edit the document, `npm run codegen`, write one handler.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, HTTPMethods } from 'fastify'
import { ApiError } from '../http/error-codes.ts'
import type { ApiDocument } from './document.ts'
import { operationHooks, type Clock } from './operation-hooks.ts'
import { routeSchema } from './route-schema.ts'
import { needsBearerKey } from './operation-security.ts'
import { notFound } from '../http/error-handler.ts'
import { wrapHandler, type AnyHandler, type HandlerWrappers } from './wrapper.ts'

export interface SpecRoutesOptions {
  document: ApiDocument
  handlers: Readonly<Record<string, AnyHandler>>
  now: Clock
  /** An operation not answered within this (a stalled database) gets 503 (./deadline.ts). */
  responseTimeoutMs: number
  /** What features put around the handlers: idempotency, the response cache (./wrapper.ts). */
  wrappers: HandlerWrappers
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

export default async function specRoutes (app: FastifyInstance, { document, handlers, now, responseTimeoutMs, wrappers }: SpecRoutesOptions) {
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
      const operation = { operationId: op.operationId, method: op.method as HTTPMethods, url: op.url, schema: routeSchema(document, op.operationId) }
      scope.route({
        method: operation.method,
        url: operation.url,
        schema: operation.schema,
        // statsId: metrics label the route by its operationId.
        config: { public: !needsBearerKey(document, op.operationId), statsId: op.operationId },
        ...operationHooks(op, scope.prefix, now),
        handler: wrapHandler(app, operation, handlers[op.operationId]!, wrappers, responseTimeoutMs)
      })
    }
    methodNotAllowed(scope, document)
  }, { prefix: document.prefix })
}
