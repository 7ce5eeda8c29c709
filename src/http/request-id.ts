/**
 * Request ids: taken from an incoming `X-Request-Id` when it is a sane token holding no key (so a caller
 * or a proxy can follow one request through its logs), made fresh otherwise. Every log
 * line of a request carries it, and the answer returns it.
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

export const REQUEST_ID_HEADER = 'x-request-id'

// Visible ASCII without separators, 1 to 128 characters: safe in logs and headers.
const ACCEPTED = /^[A-Za-z0-9._:@-]{1,128}$/

/** A key of this service (`pst_...`), pasted where an id goes, would be written on every line. */
const KEY_PREFIX = 'pst_'

export function requestId (request: IncomingMessage): string {
  const incoming = request.headers[REQUEST_ID_HEADER]
  return typeof incoming === 'string' && ACCEPTED.test(incoming) && !incoming.includes(KEY_PREFIX) ? incoming : randomUUID()
}
