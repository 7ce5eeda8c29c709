/**
 * Authentication, in one place: reading the bearer key of a request, looking it up among
 * the accepted keys (once per request, whoever asks first: the rate limiter or the check),
 * the check that refuses a request without a valid key (@fastify/bearer-auth), and the
 * RFC 6750 challenge of its 401.
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3
 */
import bearerAuth from '@fastify/bearer-auth'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError } from '../../http/error-codes.ts'

export interface Authenticator {
  /** The hash of the request's API key when the key is accepted; undefined otherwise. */
  keyHash: (request: FastifyRequest) => string | undefined
  /** The 401 `unauthorized`, with its challenge, for a request without a valid key; undefined when the key is valid. */
  check: (request: FastifyRequest, reply: FastifyReply) => Promise<ApiError | undefined>
}

declare module 'fastify' {
  interface FastifyInstance {
    auth: Authenticator
  }
}

// The scheme name is case-insensitive (RFC 9110 section 11.1): `bearer KEY` is valid.
const SCHEME = 'bearer '

/** The token of a `Bearer` Authorization header, read as @fastify/bearer-auth reads it. */
function bearerToken (header: string | undefined): string | undefined {
  if (header === undefined || header.slice(0, SCHEME.length).toLowerCase() !== SCHEME) return undefined
  return header.slice(SCHEME.length).trim()
}

/** The 401 for a request: `error="invalid_token"` only when a bearer token was presented. */
function challenge (request: FastifyRequest): ApiError {
  const header = request.headers.authorization
  if (header === undefined || header === '') {
    return new ApiError('unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>',
      { 'www-authenticate': 'Bearer realm="petstore"' })
  }
  if (bearerToken(header) === undefined) {
    return new ApiError('unauthorized', 'Authorization header must use the Bearer scheme',
      { 'www-authenticate': 'Bearer realm="petstore"' })
  }
  return new ApiError('unauthorized', 'Invalid API key',
    { 'www-authenticate': 'Bearer realm="petstore", error="invalid_token"' })
}

export default fp(async function auth (app: FastifyInstance) {
  // One key hash and lookup per request, however many times it is asked.
  const looked = new WeakMap<FastifyRequest, string | undefined>()
  function keyHash (request: FastifyRequest): string | undefined {
    if (looked.has(request)) return looked.get(request)
    const token = bearerToken(request.headers.authorization)
    const hash = token === undefined ? undefined : app.apiKeys.identify(token)
    looked.set(request, hash)
    return hash
  }

  await app.register(bearerAuth, {
    // Failures come back to `check` below, which answers them with the challenge.
    addHook: false,
    keys: [],
    auth: (_key: string, request: FastifyRequest) => keyHash(request) !== undefined,
    specCompliance: 'rfc6749',
    verifyErrorLogLevel: 'debug'
  })
  const verifyBearerAuth = app.verifyBearerAuth!
  const check = (request: FastifyRequest, reply: FastifyReply) => new Promise<ApiError | undefined>((resolve, reject) => {
    verifyBearerAuth(request, reply, (error) => {
      if (error === undefined) return resolve(undefined)
      const code = (error as { code?: string }).code ?? ''
      if (code.startsWith('FST_BEARER_AUTH_')) resolve(challenge(request))
      else reject(error)
    })
  })
  app.decorate('auth', { keyHash, check })
}, { name: 'auth', dependencies: ['api-keys'] })
