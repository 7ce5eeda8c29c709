/**
 * Logger options: structured JSON (pino) by default, pino-pretty for a person at a
 * terminal. The format changes nothing else.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify'
import type { Config } from './config.ts'

/**
 * Secrets never reach a log line. A request, logged as `req` or `request`, is written by
 * `serializeRequest` below, which logs no headers; these paths guard the other places a
 * header set can be logged whole. Each is a fixed path: a `*` path was checked against every
 * line, the completion line of every request included, and cost more than writing the line.
 */
export const REDACTED_PATHS = [
  'headers.authorization',
  'err.headers.authorization',
  'error.headers.authorization'
]

// Query parameters that carry a credential when a client sends one in the wrong place.
const CREDENTIAL_PARAMETER = /^(api[-_]?key|key|access[-_]?token|refresh[-_]?token|id[-_]?token|token|auth|authorization|bearer|password|passwd|secret|client[-_]?secret)$/i

function decodedName (name: string): string {
  try { return decodeURIComponent(name.replaceAll('+', ' ')) } catch { return name }
}

// A query with no escapes and no credential-like name anywhere has nothing to redact: the
// common case (`?limit=20`), checked without splitting it.
const MAYBE_CREDENTIAL = /key|token|auth|bearer|pass|secret|[%+]/i

/** The URL with the value of every credential-like query parameter replaced. */
export function redactUrl (url: string): string {
  const start = url.indexOf('?')
  if (start === -1 || !MAYBE_CREDENTIAL.test(url.slice(start))) return url
  const query = url.slice(start + 1).split('&').map((pair) => {
    const equals = pair.indexOf('=')
    const name = equals === -1 ? pair : pair.slice(0, equals)
    return CREDENTIAL_PARAMETER.test(decodedName(name)) ? `${name}=[redacted]` : pair
  })
  return `${url.slice(0, start)}?${query.join('&')}`
}

/** Fastify's own request fields, with the URL redacted. */
function serializeRequest (request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort
  }
}

export function loggerOptions (log: Config['log'], isTerminal = process.stdout.isTTY === true) {
  const pretty = log.format === 'pretty' || (log.format === 'auto' && isTerminal)
  return {
    level: log.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest, request: serializeRequest },
    ...(pretty && { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } })
  } satisfies FastifyServerOptions['logger']
}
