/**
 * Errors Node's HTTP parser raises before Fastify sees a request (malformed HTTP, headers
 * too slow or too large). They get the Error body too, then the connection is closed.
 */
import { STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import { ApiError } from './error-codes.ts'
import { JSON_MEDIA_TYPE } from './media-type.ts'

function toApiError (error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError('request_timeout', 'The request was not received in time')
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError('headers_too_large', 'The request headers are too large')
    default:
      return new ApiError('invalid_request', 'Malformed HTTP request')
  }
}

export function clientErrorHandler (error: NodeJS.ErrnoException, socket: Socket): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return
  if (socket.writable) {
    const apiError = toApiError(error)
    const body = JSON.stringify(apiError.body)
    socket.write(`HTTP/1.1 ${apiError.statusCode} ${STATUS_CODES[apiError.statusCode]}\r\n` +
      `Content-Type: ${JSON_MEDIA_TYPE}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`)
  }
  socket.destroy(error)
}
