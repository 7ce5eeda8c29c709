/**
 * What a request must have before its parts are validated, decided here once for every
 * operation rather than in each handler:
 *
 * - A body the document declares `required` is there. Fastify validates a body declared
 *   under several media types by the request's `Content-Type`, so a request with neither
 *   body nor `Content-Type` would reach the handler unvalidated, with no body at all. An
 *   empty body is no body (./validation.ts reads it as none).
 * - No path parameter is empty: `/v1/pets/` names no pet, so it is no route (404), as
 *   `/v1/pets/1/x` is, rather than a pet id that "must be integer".
 */
import type { FastifyRequest, onRequestHookHandler, preValidationHookHandler } from 'fastify'
import { ApiError } from '../http/error-codes.ts'
import { noRoute } from '../http/error-handler.ts'
import { acceptedMediaTypes } from '../http/media-type.ts'
import type { JsonObject } from './document.ts'

/** The preValidation hook of an operation whose body is required; undefined for the others. */
export function requireBody (requestBody: JsonObject | null): preValidationHookHandler | undefined {
  if (requestBody?.required !== true) return undefined
  return function requireBody (request, _reply, done) {
    if (request.body !== undefined) return done()
    const accepted = acceptedMediaTypes(request.routeOptions.schema)
    done(new ApiError('invalid_request', `body is required, as ${accepted.join(' or ')}`))
  }
}

/** The onRequest hook of a route with path parameters: an empty one is no route. */
export const refuseEmptyPathParameters: onRequestHookHandler = function refuseEmptyPathParameters (request, _reply, done) {
  done(hasEmptyParameter(request) ? noRoute(request) : undefined)
}

function hasEmptyParameter (request: FastifyRequest): boolean {
  const params = request.params as Record<string, string>
  for (const name in params) if (params[name] === '') return true
  return false
}
