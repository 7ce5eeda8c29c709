/**
 * The types of operation handlers, derived from generated/openapi.ts: a handler's params,
 * query, body and reply types are those of its operation, so no request or response type
 * is written by hand, and a handler map missing an operation does not compile.
 */
import type { RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, RouteHandlerMethod } from 'fastify'
import type { operations } from '../../generated/openapi.ts'

export type OperationId = keyof operations

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
