/**
 * The types of operation handlers, derived from generated/openapi.ts: a handler's params,
 * query, body and reply types are those of its operation, so no request or response type
 * is written by hand, and a handler map missing an operation does not compile.
 * `checkHandlers` checks the same pairing at start, against the document actually loaded.
 */
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, RouteHandlerMethod } from 'fastify'
import type { operations, PathOperationId } from '../../generated/openapi.ts'
import type { ApiDocument } from './document.ts'

export type OperationId = PathOperationId

/** `unknown` where the document declares nothing (openapi-typescript writes `never`). */
type Declared<T> = [NonNullable<T>] extends [never] ? unknown : NonNullable<T>

type JsonBody<T> = T extends { content: { 'application/json': infer Body } } ? Body : undefined

type SuccessStatus = 200 | 201 | 202 | 204

type SuccessBody<Responses> = {
  [Status in keyof Responses & SuccessStatus]: JsonBody<Responses[Status]>
}[keyof Responses & SuccessStatus]

export interface RouteTypes<Id extends OperationId> {
  Params: Declared<operations[Id]['parameters']['path']>
  Querystring: Declared<operations[Id]['parameters']['query']>
  Body: operations[Id] extends { requestBody: infer Body } ? JsonBody<Body> : unknown
  Reply: SuccessBody<operations[Id]['responses']>
}

export type Handler<Id extends OperationId> =
  RouteHandlerMethod<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, RouteTypes<Id>>

/** One handler per operation of spec/openapi.yaml, keyed by operationId. */
export type Handlers = { [Id in OperationId]: Handler<Id> }

/**
 * Throws, naming them, when the document's operations and the handlers do not pair up one
 * to one: the start's check of what the types check at compile time, for the document
 * actually loaded (another one, in tests).
 */
export function checkHandlers (document: ApiDocument, handlers: Readonly<Record<string, unknown>>): void {
  const missing = [...document.operations.keys()].filter((id) => typeof handlers[id] !== 'function')
  const extra = Object.keys(handlers).filter((id) => !document.operations.has(id))
  const problems = []
  if (missing.length > 0) problems.push(`no handler for operation ${missing.join(', ')}`)
  if (extra.length > 0) problems.push(`handler ${extra.join(', ')} has no operation in the document`)
  if (problems.length > 0) throw new Error(`${document.source}: ${problems.join('; ')}`)
}
