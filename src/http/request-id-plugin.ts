/**
 * Returns each request's id (see ./request-id.ts) in the `X-Request-Id` header of its
 * answer, errors included.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { REQUEST_ID_HEADER } from './request-id.ts'

export default fp(async function requestIds (app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    reply.header(REQUEST_ID_HEADER, request.id)
    done()
  })
}, { name: 'request-ids' })
