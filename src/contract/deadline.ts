/**
 * A deadline for each operation's work: an answer not ready within `ms` (a database that
 * stalls, a network that drops packets) becomes 503 `unavailable` with Retry-After, so no
 * request hangs for as long as a fault lasts. Every database statement has its own timeout
 * too (../database/postgres.ts); this bounds the sum of them, and whatever else waits.
 *
 * The work itself cannot be stopped from here and goes on; its outcome is logged. A write
 * may therefore still commit after its 503, as after any lost answer: clients retry
 * creates with an Idempotency-Key, which replays it rather than making a second record.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify'
import { databaseUnavailable } from '../http/error-handler.ts'

type Handler = RouteHandlerMethod<any, any, any, any>

export function withDeadline (handler: Handler, ms: number): Handler {
  return function deadlineHandler (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const work = Promise.resolve(handler.call(this, request, reply))
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        work.then(() => request.log.warn({ deadlineMs: ms }, 'work finished after its deadline; it was answered 503'),
          (error: unknown) => request.log.error({ err: error, deadlineMs: ms }, 'work failed after its deadline; it was answered 503'))
        request.log.error({ deadlineMs: ms }, 'no answer within the deadline')
        reject(databaseUnavailable())
      }, ms)
    })
    return Promise.race([work, late]).finally(() => clearTimeout(timer))
  }
}
