/**
 * The error codes of the API, in one table, and the error that carries one.
 * The set of codes is the `ErrorCode` schema of spec/openapi.yaml.
 */
import type { components } from '../../generated/openapi.ts'

export type ErrorCode = components['schemas']['ErrorCode']
export type ErrorBody = components['schemas']['Error']

const ERROR_STATUS: Readonly<Record<ErrorCode, number>> = {
  invalid_request: 400,
  invalid_json: 400,
  unsupported_media_type: 400,
  invalid_webhook_url: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  idempotency_key_in_use: 409,
  request_timeout: 408,
  gone: 410,
  precondition_failed: 412,
  payload_too_large: 413,
  idempotency_key_reused: 422,
  rate_limited: 429,
  headers_too_large: 431,
  internal_error: 500,
  unavailable: 503
}

/** An error the client is meant to see: its code, message and any headers that go with it. */
export class ApiError extends Error {
  readonly statusCode: number

  constructor (readonly code: ErrorCode, message: string, readonly headers: Readonly<Record<string, string>> = {}) {
    super(message)
    this.name = 'ApiError'
    this.statusCode = ERROR_STATUS[code]
  }

  get body (): ErrorBody {
    return { code: this.code, message: this.message, status: this.statusCode }
  }
}
