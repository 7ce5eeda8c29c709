/**
 * The OpenAPI document wires the routes: every operation is registered from a map of
 * handlers keyed by operationId, and everything around it comes from the document itself:
 * - the path prefix from the first server (`/v1`);
 * - method, URL and JSON schemas from the operation;
 * - the bearer check from `security`, the rate limit with it;
 * - deprecation headers and 410 from `deprecated`/`x-deprecated-*`, `API-Stability` from
 *   `x-stability` (../openapi/operation-hooks.ts);
 * - 405 with `Allow` for the document's paths asked with another method, and the Error
 *   body for unknown paths under the prefix.
 * The start fails when an operation has no handler or a handler no operation, so adding
 * an operation is: edit the document, `npm run codegen`, write one handler.
 */
import type { FastifyInstance, HTTPMethods, RouteHandlerMethod } from 'fastify'
import { ApiError } from '../errors.ts'
import type { ApiDocument } from '../openapi/document.ts'
import { operationHooks, type Clock } from '../openapi/operation-hooks.ts'
import { routeSchema } from '../openapi/route-schema.ts'
import { needsBearerKey } from '../openapi/security.ts'
import { notFound } from './errors.ts'
import rateLimits, { type RateLimitOptions } from './rate-limit.ts'

export interface SpecRoutesOptions {
  document: ApiDocument
  handlers: Readonly<Record<string, RouteHandlerMethod<any, any, any, any>>>
  now: Clock
  rateLimit: Omit<RateLimitOptions, 'redis'>
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

export default async function specRoutes (app: FastifyInstance, { document, handlers, now, rateLimit }: SpecRoutesOptions) {
  checkHandlers(document, handlers)
  await app.register(async function api (scope) {
    // Counted before the key check (below), so that requests with bad keys are throttled too.
    await scope.register(rateLimits, { ...rateLimit, redis: app.redis })
    // preParsing, not onRequest: the rate limit is a route-level onRequest hook, and it must
    // count a request before its key is checked. No body is read before the check either way.
    // Unknown paths and 405s follow the document-wide `security`; each operation its own.
    const openByDefault = !needsBearerKey(document, undefined)
    scope.addHook('preParsing', (request, reply, payload, done) => {
      if (request.routeOptions.config.public ?? openByDefault) return done(null, payload)
      app.auth.verify.call(scope, request, reply, payload, done)
    })
    scope.setNotFoundHandler(notFound)
    for (const op of document.operations.values()) {
      scope.route({
        method: op.method as HTTPMethods,
        url: op.url,
        schema: routeSchema(document, op.operationId),
        config: { public: !needsBearerKey(document, op.operationId) },
        ...operationHooks(op, scope.prefix, now),
        handler: handlers[op.operationId]!
      })
    }
    methodNotAllowed(scope, document)
  }, { prefix: document.prefix })
}
