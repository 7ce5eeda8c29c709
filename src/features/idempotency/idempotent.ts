/**
 * Idempotency around the operations that declare the `Idempotency-Key` header (creates),
 * as a wrapper the wiring applies inside the deadline (../../contract/wrapper.ts): the
 * create and the keeping of its answer wait on the database together.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { parameterNames, type HandlerWrapper } from '../../contract/wrapper.ts'
import { JSON_MEDIA_TYPE } from '../../http/media-type.ts'
import { requestHash } from './plugin.ts'

/**
 * The handler of a create that takes an Idempotency-Key: with a key, it runs once inside
 * the idempotency transaction, and its answer, serialized here, is kept with the record.
 */
export const idempotentCreates: HandlerWrapper = (app, operation, handler) => {
  if (!parameterNames(operation, 'headers').includes('idempotency-key')) return handler
  const { operationId } = operation
  return async function idempotentHandler (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers['idempotency-key']
    if (typeof key !== 'string') return handler.call(this, request, reply)
    const answer = await app.idempotency.run(request, key, requestHash(operationId, request.body), async () => {
      const payload = await handler.call(this, request, reply)
      // The route's own serializer, for its status: JSON text.
      return { status: reply.statusCode, body: String(reply.serialize(payload)) }
    })
    if (answer.replayed) reply.header('idempotent-replayed', 'true')
    // JSON text already: sent as it is, like any handler's result, once this returns.
    reply.code(answer.status).type(JSON_MEDIA_TYPE)
    return answer.body
  }
}
