/**
 * Logger options: structured JSON (pino) by default, pino-pretty for a person at a
 * terminal. The format changes nothing else.
 */
import type { FastifyServerOptions } from 'fastify'
import type { Config } from './config.ts'

/**
 * Secrets never reach a log line. Fastify's request serializer logs no headers, so these
 * paths are a second guard, for anything that logs a request or its headers whole.
 */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'request.headers.authorization',
  'headers.authorization',
  '*.headers.authorization'
]

export function loggerOptions (log: Config['log'], isTerminal = process.stdout.isTTY === true): FastifyServerOptions['logger'] {
  const pretty = log.format === 'pretty' || (log.format === 'auto' && isTerminal)
  return {
    level: log.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    ...(pretty && { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } })
  }
}
