/**
 * One error handler and one not-found handler: every error, from every layer, leaves as
 * the Error body `{code, message, status}` in JSON. 5xx details are logged, never sent.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { redactText } from '../config/redact.ts'
import { isDatabaseUnavailable } from '../database/errors.ts'
import { ApiError, type ErrorCode } from './error-codes.ts'
import { acceptedMediaTypes, JSON_MEDIA_TYPE, mediaTypeRefusal } from './media-type.ts'

/** Fastify's and its plugins' own errors, by their `code`, as API error codes. */
const FRAMEWORK_CODES: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
  FST_ERR_CTP_BODY_TOO_LARGE: 'payload_too_large',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_JSON_BODY: 'invalid_json',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'invalid_request',
  FST_ERR_BAD_URL: 'invalid_request',
  FST_UNDER_PRESSURE: 'unavailable'
}

/** Clearer words than the frameworks' for the errors a client hits most. */
const MESSAGES: Partial<Record<ErrorCode, string>> = {
  payload_too_large: 'Request body is too large',
  unavailable: 'The service is overloaded; retry after the Retry-After delay'
}

/** How soon a client may try again after the database failed it: long enough for a lock or a failover. */
const DATABASE_RETRY_AFTER_SECONDS = 2

/** The answer to a request the database could not serve (locked, full, unreachable, too slow). */
export function databaseUnavailable (): ApiError {
  return new ApiError('unavailable', 'The database is not available right now; retry after the Retry-After delay',
    { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) })
}

/** The API error a thrown error stands for; undefined when it is a bug (a 500). */
function toApiError (error: FastifyError, request: FastifyRequest): ApiError | undefined {
  if (error instanceof ApiError) return error
  if (error.validation !== undefined) return new ApiError('invalid_request', error.message)
  const code = FRAMEWORK_CODES[error.code]
  if (code === 'unsupported_media_type') return new ApiError(code, mediaTypeRefusal(acceptedMediaTypes(request.routeOptions.schema)))
  if (code !== undefined) return new ApiError(code, MESSAGES[code] ?? error.message)
  // Any other client error Fastify raises carries a safe message and a 4xx status.
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError('invalid_request', error.message)
  }
  return undefined
}

const ERROR_HEADERS = { 'content-type': JSON_MEDIA_TYPE, 'cache-control': 'no-store' }

/** An error answer: never stored by any cache, since it may not hold a moment later. */
export function sendError (reply: FastifyReply, error: ApiError): FastifyReply {
  return reply.code(error.statusCode).headers(ERROR_HEADERS).headers(error.headers).send(error.body)
}

/** The 404 of a request that no route serves. */
export function noRoute (request: FastifyRequest): ApiError {
  const path = request.url.split('?', 1)[0]!.slice(0, 200)
  return new ApiError('not_found', `No route ${request.method} ${path}`)
}

export function notFound (request: FastifyRequest, reply: FastifyReply): FastifyReply {
  return sendError(reply, noRoute(request))
}

export default fp(async function errors (app: FastifyInstance) {
  app.setErrorHandler(function handleError (error: FastifyError, request, reply) {
    if (isDatabaseUnavailable(error)) {
      // The real cause (`database is locked`, `disk full`, a lost connection) is in `err`.
      request.log.error({ err: error }, 'database unavailable')
      return sendError(reply, databaseUnavailable())
    }
    const apiError = toApiError(error, request)
    if (apiError !== undefined) {
      // A message can quote what the client sent (a parameter's name), a key pasted there included.
      request.log.info({ code: apiError.code, status: apiError.statusCode }, redactText(apiError.message))
      return sendError(reply, apiError)
    }
    request.log.error({ err: error }, 'internal error')
    return sendError(reply, new ApiError('internal_error', `Internal server error (request id ${request.id})`))
  })
  app.setNotFoundHandler(notFound)
}, { name: 'errors' })
