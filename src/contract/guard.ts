/**
 * The guard of the API scope: what every request under the prefix, known path or not,
 * meets before anything else about it. An address over its allowance is refused before its
 * key is even looked at; then the key is checked (unless the operation is public), a
 * failure counting against the address, a success against the key; last, the key's scopes
 * against the operation's (a 403, which never counts against the address).
 *
 * The rate limits and the key check are the `rateLimits` and `auth` decorators, asked by
 * their declared types: the guard decides the order, they decide the answers.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ApiDocument } from './document.ts'
import { requiredScopes } from './operation-security.ts'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Set on routes anyone may call (an operation whose `security` is empty). */
    public?: boolean
    /** The operation a route serves; unset on the 404 and 405 routes. */
    operationId?: string
    /** The scopes its key needs: alternatives, each the scopes needed together (./operation-security.ts). */
    scopes?: string[][]
  }
}

/** The `onRequest` hook of the API scope. */
export function guard (app: FastifyInstance, document: ApiDocument) {
  // Unknown paths and 405s follow the document-wide `security`; each operation its own.
  const openByDefault = requiredScopes(document, undefined) === undefined
  return async function guard (request: FastifyRequest, reply: FastifyReply) {
    const { auth, rateLimits } = app
    await rateLimits.refuseBlockedAddress(request, reply)
    if (request.routeOptions.config.public ?? openByDefault) return rateLimits.countAddress(request, reply)
    const refused = auth.check(request, reply)
    if (refused !== undefined) {
      const refusal = await refused
      await rateLimits.countAddress(request, reply)
      throw refusal
    }
    await rateLimits.countKey(request, reply, auth.key(request)!.hash)
    const { scopes } = request.routeOptions.config
    const forbidden = scopes === undefined ? undefined : auth.authorize(request, scopes)
    if (forbidden !== undefined) throw forbidden
  }
}
