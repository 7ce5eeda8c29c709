/**
 * PetstoreError: every answer that is not a success, thrown as one error type carrying the
 * service's Error body (`code`, `message`, `status`) and the request id to quote when
 * reporting it. Callers branch on `code`, typed by the document's `ErrorCode` schema.
 */
import type { components } from './generated/openapi.ts'

export type ErrorCode = components['schemas']['ErrorCode']

/**
 * `unexpected_response`: an answer without the service's Error body, such as a proxy's
 * HTML 502 in front of it. The service itself only ever sends the document's codes.
 */
export type PetstoreErrorCode = ErrorCode | 'unexpected_response'

export interface PetstoreErrorFields {
  status: number
  code: PetstoreErrorCode
  message: string
  requestId?: string | undefined
  retryAfter?: number | undefined
}

export class PetstoreError extends Error {
  /** The HTTP status of the answer. */
  readonly status: number
  readonly code: PetstoreErrorCode
  /** The answer's `X-Request-Id`, as the service's logs show it; undefined when absent. */
  readonly requestId: string | undefined
  /** The answer's `Retry-After`, in seconds, when it had one (429, 503). */
  readonly retryAfter: number | undefined

  constructor ({ status, code, message, requestId, retryAfter }: PetstoreErrorFields) {
    super(message)
    this.name = 'PetstoreError'
    this.status = status
    this.code = code
    this.requestId = requestId
    this.retryAfter = retryAfter
  }
}

function isErrorBody (body: unknown): body is components['schemas']['Error'] {
  if (body === null || typeof body !== 'object') return false
  const { code, message } = body as Record<string, unknown>
  return typeof code === 'string' && typeof message === 'string'
}

/** Seconds from a `Retry-After` header given in seconds; undefined for anything else. */
export function retryAfterSeconds (headers: Headers): number | undefined {
  const value = headers.get('retry-after')
  return value !== null && /^\d+$/.test(value.trim()) ? Number(value) : undefined
}

/** The error for an answer that is not `ok`; `body` is what openapi-fetch read from it. */
export function errorFromResponse (response: Response, body: unknown): PetstoreError {
  const requestId = response.headers.get('x-request-id') ?? undefined
  const retryAfter = retryAfterSeconds(response.headers)
  if (isErrorBody(body)) {
    // A newer service may send a code this client does not know yet: kept as sent.
    return new PetstoreError({ status: response.status, code: body.code, message: body.message, requestId, retryAfter })
  }
  const message = `The service answered HTTP ${response.status} without an Error body`
  return new PetstoreError({ status: response.status, code: 'unexpected_response', message, requestId, retryAfter })
}
