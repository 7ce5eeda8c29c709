/**
 * Per-operation behaviour read from the document's own fields, as route hooks:
 *
 * - `deprecated: true` with `x-deprecated-since`, `x-deprecated-sunset` and `x-successor`:
 *   every answer carries `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and a
 *   `Link rel="successor-version"`; from the sunset instant on, the operation answers 410.
 * - `x-stability: experimental | alpha | beta`: every answer carries `API-Stability`.
 *
 * "Every answer" includes errors: the headers are added in onSend, which every answer of
 * the route passes through, whichever hook or handler produced it. The same hook says how a
 * successful answer may be cached.
 * @see https://www.rfc-editor.org/rfc/rfc9745
 * @see https://www.rfc-editor.org/rfc/rfc8594
 */
import type { onSendHookHandler, preParsingHookHandler } from 'fastify'
import { entityTag, noneMatch } from '../http/conditional.ts'
import { ApiError } from '../http/error-codes.ts'
import type { Operation } from './document.ts'

export type Clock = () => Date

/** What each level promises; an operation without a marking is stable. */
export const STABILITY_PROMISES = {
  experimental: 'may change or vanish without notice.',
  alpha: 'may change or vanish without notice; being tried out before beta.',
  beta: 'keeps its shape, but may still change, with notice.'
} as const

const STABILITY_LEVELS = Object.keys(STABILITY_PROMISES)

interface OperationHooks { preParsing?: preParsingHookHandler, onSend?: onSendHookHandler }

function deprecation (op: Operation, prefix: string, now: Clock): { headers: Record<string, string>, preParsing: preParsingHookHandler } | undefined {
  const { operation } = op
  if (operation.deprecated !== true) return undefined
  const since = Date.parse(String(operation['x-deprecated-since']))
  const sunset = Date.parse(String(operation['x-deprecated-sunset']))
  if (Number.isNaN(since) || Number.isNaN(sunset) || typeof operation['x-successor'] !== 'string') {
    throw new Error(`${op.operationId}: a deprecated operation needs x-deprecated-since and x-deprecated-sunset dates and an x-successor path`)
  }
  const successor = `${prefix}${operation['x-successor']}`
  const gone = () => new ApiError('gone',
    `${op.method} ${prefix}${op.path} was removed on ${new Date(sunset).toISOString().slice(0, 10)}; use GET ${successor}`)
  return {
    headers: {
      deprecation: `@${since / 1000}`,
      sunset: new Date(sunset).toUTCString(),
      link: `<${successor}>; rel="successor-version"`
    },
    // After the key check (the API scope's onRequest guard), so a caller without a key
    // learns nothing but 401.
    async preParsing (_request, _reply, payload) {
      if (now().getTime() >= sunset) throw gone()
      return payload
    }
  }
}

function stability (op: Operation): Record<string, string> {
  const level = op.operation['x-stability']
  if (level === undefined) return {}
  if (typeof level !== 'string' || !STABILITY_LEVELS.includes(level)) {
    throw new Error(`${op.operationId}: x-stability must be one of ${STABILITY_LEVELS.join(', ')}, not ${String(level)}`)
  }
  return { 'api-stability': level }
}

/**
 * How a successful answer may be cached: a read by the caller only, revalidated before
 * reuse; a write never. Errors are never stored (`no-store`, set with the Error body).
 */
function successCacheControl (op: Operation): string {
  return op.method === 'GET' ? 'private, no-cache' : 'no-store'
}

/** The hooks an operation's own fields call for. */
export function operationHooks (op: Operation, prefix: string, now: Clock): OperationHooks {
  const deprecated = deprecation(op, prefix, now)
  const headers = { ...deprecated?.headers, ...stability(op) }
  const cacheControl = successCacheControl(op)
  // A read's answer carries an entity tag, and one the client already has is a 304. Only
  // a 200 is tagged: errors are never stored, and this runs after the key check, so no
  // tag ever answers a request without a valid key.
  const revalidates = op.method === 'GET'
  return {
    ...(deprecated !== undefined && { preParsing: deprecated.preParsing }),
    // Synchronous, as it waits on nothing: an async hook would cost a promise per answer.
    onSend (request, reply, payload, done) {
      reply.headers(headers)
      if (reply.statusCode >= 400) return done(null, payload)
      reply.header('cache-control', cacheControl)
      if (!revalidates || reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return done(null, payload)
      // A cached answer comes with its tag (a wrapper set it: ./wrapper.ts).
      const kept = reply.getHeader('etag')
      const tag = typeof kept === 'string' ? kept : entityTag(payload)
      reply.header('etag', tag)
      if (!noneMatch(request.headers['if-none-match'], tag)) return done(null, payload)
      // No body, so nothing to describe it (RFC 9110 section 15.4.5): no payload at all, as
      // Fastify writes `content-length: 0` for an empty string, which a 304 must not carry
      // (RFC 9110 section 8.6).
      reply.code(304).removeHeader('content-type')
      done(null, null)
    }
  }
}
