/**
 * An HTTP/1.1 request must name its host (RFC 9112 section 3.2). Node would refuse one
 * without `Host` itself, with an empty 400 before any hook runs; the service turns that
 * check off (`requireHostHeader: false`, see ../app.ts) and refuses here instead, so the
 * answer has the Error body, the request id and the security headers like every other.
 * @see https://www.rfc-editor.org/rfc/rfc9112#section-3.2
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError } from './error-codes.ts'

// A new error per refusal: an error object carries its stack and whatever a handler adds to it.
const missingHost = () => new ApiError('invalid_request', 'An HTTP/1.1 request needs a Host header')

export default fp(async function requireHost (app: FastifyInstance) {
  app.addHook('onRequest', (request, _reply, done) => {
    const { raw } = request
    const needsHost = raw.httpVersionMajor > 1 || (raw.httpVersionMajor === 1 && raw.httpVersionMinor >= 1)
    done(needsHost && raw.headers.host === undefined ? missingHost() : undefined)
  })
}, { name: 'require-host', dependencies: ['request-ids', 'security'] })
