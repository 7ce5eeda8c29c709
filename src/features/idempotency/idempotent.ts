/**
 * Idempotency around the operations that declare the `Idempotency-Key` header (creates),
 * as a wrapper the wiring applies inside the deadline (../../contract/wrapper.ts): the
 * create and the keeping of its answer wait on the database together.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { parameterNames, type HandlerWrapper } from '../../contract/wrapper.ts'
import { ApiError } from '../../http/error-codes.ts'
import { JSON_MEDIA_TYPE } from '../../http/media-type.ts'
import { requestHash } from './plugin.ts'

/** Whether `schema` declares a secret anywhere in it: a string of `format: password`. */
function holdsSecret (schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false
  if ((schema as { format?: unknown }).format === 'password') return true
  return Object.values(schema).some(holdsSecret)
}

/**
 * The handler of a create that takes an Idempotency-Key: with a key, it runs once inside
 * the idempotency transaction, and its answer, serialized here, is kept with the record.
 * An answer that may hold a secret (a webhook endpoint's) is kept sealed, as the secret
 * itself is, so the record never has it in the clear; one the key no longer opens is a 409,
 * never a second create.
 */
export const idempotentCreates: HandlerWrapper = (app, operation, handler) => {
  if (!parameterNames(operation, 'headers').includes('idempotency-key')) return handler
  const { operationId } = operation
  const sealed = holdsSecret(operation.schema.response)
  return async function idempotentHandler (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    const key = request.headers['idempotency-key']
    if (typeof key !== 'string') return handler.call(this, request, reply)
    const answer = await app.idempotency.run(request, key, requestHash(operationId, request.params as Record<string, unknown>, request.body), async () => {
      const payload = await handler.call(this, request, reply)
      // The route's own serializer, for its status: JSON text.
      const body = String(reply.serialize(payload))
      return { status: reply.statusCode, body: sealed ? await app.secrets.seal(body) : body }
    })
    if (sealed) {
      answer.body = await app.secrets.open(answer.body).catch((error: unknown) => {
        // Only a replay: a fresh answer was sealed a moment ago with this very key.
        request.log.warn({ err: error }, 'a kept idempotent answer cannot be opened with this service\'s webhook secrets key')
        throw new ApiError('conflict', 'The request with this Idempotency-Key was completed, but its answer held a webhook secret that can no longer be read (the key for webhook secrets was replaced since): ' +
          'list the webhook endpoints to find it, and rotate its secret for a new one')
      })
    }
    if (answer.replayed) reply.header('idempotent-replayed', 'true')
    // JSON text already: sent as it is, like any handler's result, once this returns.
    reply.code(answer.status).type(JSON_MEDIA_TYPE)
    return answer.body
  }
}
