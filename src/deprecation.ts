/**
 * Deprecation, read from the operation in the spec (`deprecated`, `x-deprecated-since`,
 * `x-deprecated-sunset`, `x-successor`), as route hooks:
 * - every answer carries `Deprecation` (RFC 9745), `Sunset` (RFC 8594) and a
 *   `Link rel="successor-version"`;
 * - from the sunset instant on, the operation answers 410 `gone`.
 * @see https://www.rfc-editor.org/rfc/rfc9745
 * @see https://www.rfc-editor.org/rfc/rfc8594
 */
import type { onSendHookHandler, preParsingHookHandler } from 'fastify'
import { ApiError } from './errors.ts'
import type { Operation } from './spec.ts'

export type Clock = () => Date

export function deprecationHooks (op: Operation, prefix: string, now: Clock): { preParsing: preParsingHookHandler, onSend: onSendHookHandler } | undefined {
  const { operation } = op
  if (operation.deprecated !== true) return undefined
  const since = Date.parse(String(operation['x-deprecated-since']))
  const sunset = Date.parse(String(operation['x-deprecated-sunset']))
  if (Number.isNaN(since) || Number.isNaN(sunset) || typeof operation['x-successor'] !== 'string') {
    throw new Error(`${String(operation.operationId)}: a deprecated operation needs x-deprecated-since and x-deprecated-sunset dates and an x-successor path`)
  }
  const successor = `${prefix}${operation['x-successor']}`
  const headers = {
    deprecation: `@${since / 1000}`,
    sunset: new Date(sunset).toUTCString(),
    link: `<${successor}>; rel="successor-version"`
  }
  const gone = new ApiError('gone',
    `${op.method} ${prefix}${op.path} was removed on ${new Date(sunset).toISOString().slice(0, 10)}; use GET ${successor}`)
  return {
    // After the key check (a scope-level preParsing hook), so a caller without a key
    // learns nothing but 401.
    async preParsing (_request, _reply, payload) {
      if (now().getTime() >= sunset) throw gone
      return payload
    },
    async onSend (_request, reply, payload) {
      reply.headers(headers)
      return payload
    }
  }
}
