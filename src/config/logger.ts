/**
 * Logger options: structured JSON (pino) by default, pino-pretty for a person at a
 * terminal. The format changes nothing else.
 */
import type { FastifyRequest, FastifyServerOptions } from 'fastify'
import pino from 'pino'
import type { Config } from './config.ts'
import { redactText, redactUrl } from './redact.ts'

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

/**
 * pino's own error fields, with URLs and keys redacted from the message and the stack (and
 * so from the causes' too, which pino adds to both): an error can quote the request's URL,
 * as Fastify's warning of a reply sent twice does, or an upstream's.
 */
function serializeError (error: Error): ReturnType<typeof pino.stdSerializers.err> {
  const logged = pino.stdSerializers.err(error)
  // Anything without a string `message` comes back as it was given: not ours to change.
  if (typeof error?.message !== 'string') return logged
  logged.message = redactText(logged.message)
  if (typeof logged.stack === 'string') logged.stack = redactText(logged.stack)
  return logged
}

/**
 * With `traceFields` (tracing's, given by the server when tracing is on:
 * ../tracing/trace-context.ts), each line names the span it was written in (`trace_id`,
 * `span_id`): a request's lines, the trace of that request.
 */
export function loggerOptions (log: Config['log'], isTerminal = process.stdout.isTTY === true, traceFields?: () => Record<string, string>) {
  const pretty = log.format === 'pretty' || (log.format === 'auto' && isTerminal)
  return {
    level: log.level,
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { req: serializeRequest, request: serializeRequest, err: serializeError },
    ...(traceFields !== undefined && { mixin: traceFields }),
    ...(pretty && { transport: { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } })
  } satisfies FastifyServerOptions['logger']
}
