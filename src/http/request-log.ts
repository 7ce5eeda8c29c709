/**
 * Fastify's per-request log lines, one per request instead of two: on completion, with the
 * request (method, URL with credentials redacted, address: see ../config/logger.ts and
 * redact.ts), the status and the time taken, under the request id. The arrival line is kept
 * at `debug`, for tracing a request that never finishes. The line is already among the
 * largest costs of a cached read (docs/performance.md#the-request-log-line); two would add
 * to it.
 *
 * Fastify's own 404 and error handler are replaced (./error-handler.ts), but their lines
 * come here too: they log the request as `req`, never its raw URL, so they are redacted the
 * same way should either ever answer.
 */
import { LogController, type FastifyReply, type FastifyRequest } from 'fastify'
import { redactText } from '../config/redact.ts'

export class RequestLog extends LogController {
  override incomingRequest (request: FastifyRequest): void {
    request.log.debug({ req: request }, 'incoming request')
  }

  override requestCompleted (error: Error | null, request: FastifyRequest, reply: FastifyReply): void {
    if (error) reply.log.error({ req: request, res: reply, err: error, responseTime: reply.elapsedTime }, 'request errored')
    else reply.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed')
  }

  override routeNotFound (request: FastifyRequest): void {
    request.log.info({ req: request }, 'route not found')
  }

  override defaultErrorLog (error: Error, request: FastifyRequest, reply: FastifyReply): void {
    const line = { req: request, res: reply, err: error }
    if (reply.statusCode >= 500) reply.log.error(line, redactText(error.message))
    else reply.log.info(line, redactText(error.message))
  }
}
