/**
 * What a feature puts around operations' handlers (idempotency around creates, the
 * response cache around reads), described here so that the wiring (./wiring.ts) applies
 * it without importing any feature: ../app.ts hands the wrappers over, and each decides
 * from the operation alone whether it applies.
 *
 * Where a wrapper goes depends on what it waits for. Inside the deadline (./deadline.ts)
 * goes work that waits on the database with the handler (an idempotent create's
 * transaction); around it, answers that wait on nothing (a cache hit), which a stalled
 * database must not turn into 503s.
 */
import type { FastifyInstance, FastifySchema, HTTPMethods, RouteHandlerMethod } from 'fastify'
import { withDeadline } from './deadline.ts'

/** The handler of any operation, as a wrapper sees it. */
export type AnyHandler = RouteHandlerMethod<any, any, any, any>

/** An operation as it is registered: what a wrapper decides by. */
export interface WiredOperation {
  operationId: string
  method: HTTPMethods
  /** Relative to the prefix, in Fastify's form (`/pets/:petId`). */
  url: string
  /** Its JSON schemas (./route-schema.ts); declared headers under `headers`, in lower case. */
  schema: FastifySchema
}

/** `handler` with a feature around it, or `handler` itself where the feature does not apply. */
export type HandlerWrapper = (app: FastifyInstance, operation: WiredOperation, handler: AnyHandler) => AnyHandler

export interface HandlerWrappers {
  /** Applied first, in order, each around the one before; then the deadline around them. */
  insideDeadline: readonly HandlerWrapper[]
  /** Then these, in order, around the deadline. */
  outsideDeadline: readonly HandlerWrapper[]
}

/** The names of an operation's path, query or header parameters (headers in lower case). */
export function parameterNames (operation: WiredOperation, location: 'params' | 'querystring' | 'headers'): string[] {
  return Object.keys((operation.schema[location] as { properties?: object } | undefined)?.properties ?? {})
}

/** The handler as registered: the features' wrappers and the deadline around it. */
export function wrapHandler (app: FastifyInstance, operation: WiredOperation, handler: AnyHandler, wrappers: HandlerWrappers, deadlineMs: number): AnyHandler {
  const wrap = (inner: AnyHandler, wrapper: HandlerWrapper) => wrapper(app, operation, inner)
  const bounded = withDeadline(wrappers.insideDeadline.reduce(wrap, handler), deadlineMs)
  return wrappers.outsideDeadline.reduce(wrap, bounded)
}
