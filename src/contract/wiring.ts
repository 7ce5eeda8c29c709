/**
 * The OpenAPI document wires the routes: every operation is registered from a map of
 * handlers keyed by operationId, and everything around it comes from the document itself:
 * - the path prefix from the first server (`/v1`);
 * - method, URL and JSON schemas from the operation (./route-schema.ts);
 * - the bearer check and the key's scopes from `security`, with the rate limits around it
 *   (./guard.ts);
 * - deprecation headers and 410 from `deprecated`/`x-deprecated-*`, `API-Stability` from
 *   `x-stability`, ETags and caching directives (./operation-hooks.ts);
 * - a deadline, and what features put around the handlers (./wrapper.ts): safe retries
 *   for operations that declare `Idempotency-Key`, the response cache for reads;
 * - 405 with `Allow` for the document's paths asked with another method
 *   (./method-not-allowed.ts), and the Error body for unknown paths under the prefix.
 * The start fails when an operation has no handler or a handler no operation, so adding
 * an operation is: edit the document, `npm run codegen`, write one handler.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify'
import { notFound } from '../http/error-handler.ts'
import type { ApiDocument, JsonObject } from './document.ts'
import { guard } from './guard.ts'
import { checkHandlers } from './handler-types.ts'
import { methodNotAllowed } from './method-not-allowed.ts'
import { operationHooks, type Clock } from './operation-hooks.ts'
import { requiredScopes } from './operation-security.ts'
import { refuseEmptyPathParameters, requireBody } from './request-shape.ts'
import { routeSchema, sharedSerializers } from './route-schema.ts'
import { wrapHandler, type AnyHandler, type HandlerWrappers, type WiredOperation } from './wrapper.ts'

export interface SpecRoutesOptions {
  document: ApiDocument
  handlers: Readonly<Record<string, AnyHandler>>
  now: Clock
  /** An operation not answered within this (a stalled database) gets 503 (./deadline.ts). */
  responseTimeoutMs: number
  /** What features put around the handlers: idempotency, the response cache (./wrapper.ts). */
  wrappers: HandlerWrappers
}

export default async function specRoutes (app: FastifyInstance, { document, handlers, now, responseTimeoutMs, wrappers }: SpecRoutesOptions) {
  checkHandlers(document, handlers)
  await app.register(async function api (scope) {
    scope.addHook('onRequest', guard(app, document))
    scope.setSerializerCompiler(sharedSerializers())
    scope.setNotFoundHandler(notFound)
    // Every route with a path parameter, the 405s' included, after the guard's key check.
    scope.addHook('onRoute', (route) => {
      if (route.url.includes(':')) route.onRequest = [...[route.onRequest ?? []].flat(), refuseEmptyPathParameters]
    })
    for (const op of document.operations.values()) {
      const operation: WiredOperation = { operationId: op.operationId, method: op.method as HTTPMethods, url: op.url, schema: routeSchema(document, op.operationId) }
      const scopes = requiredScopes(document, op.operationId)
      scope.route({
        method: operation.method,
        url: operation.url,
        schema: operation.schema,
        // statsId: metrics label the route by its operationId.
        config: { public: scopes === undefined, scopes, operationId: op.operationId, statsId: op.operationId },
        ...operationHooks(op, scope.prefix, now),
        preValidation: requireBody(document.dereference(op.operation.requestBody ?? null) as JsonObject | null),
        handler: wrapHandler(app, operation, handlers[op.operationId]!, wrappers, responseTimeoutMs)
      })
    }
    methodNotAllowed(scope, document)
  }, { prefix: document.prefix })
}
