/**
 * Authentication and scopes, in one place: reading the bearer key of a request, looking it
 * up among the accepted keys (once per request, whoever asks first: the rate limiter or the
 * check), the check that refuses a request without a valid key (@fastify/bearer-auth), the
 * check of the operation's scopes, and the RFC 6750 challenges of their 401 and 403.
 * @see https://www.rfc-editor.org/rfc/rfc6750#section-3
 */
import bearerAuth from '@fastify/bearer-auth'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { scopesIncluding } from '../../contract/scope-inclusion.ts'
import { ApiError, type ErrorCode } from '../../http/error-codes.ts'
import type { AcceptedKey, KeyLookup } from './plugin.ts'

/** Why a key was refused, as the metrics count it. */
export type RefusalReason = 'missing' | 'not_bearer' | 'invalid' | 'expired' | 'insufficient_scope'

/** A 401 or 403 of the key check, with its reason. */
export class KeyRefusal extends ApiError {
  constructor (readonly reason: RefusalReason, code: ErrorCode, message: string, challenge: string) {
    super(code, message, { 'www-authenticate': `Bearer realm="petstore"${challenge}` })
  }
}

export interface Authenticator {
  /** The request's API key when it is accepted; undefined otherwise. */
  key: (request: FastifyRequest) => AcceptedKey | undefined
  /**
   * The 401 `unauthorized`, with its challenge, for a request without a valid key;
   * undefined, at once, when the key is valid.
   */
  check: (request: FastifyRequest, reply: FastifyReply) => undefined | Promise<KeyRefusal>
  /**
   * The 403 `insufficient_scope` for a request whose valid key holds none of the
   * alternatives the operation accepts (each a list of scopes needed together), neither
   * itself nor through a scope that includes it (`pets:write` includes `pets:read`);
   * undefined when it holds one. `reason` says what the operation needs them for, where
   * that is more than the operation itself (the events an endpoint selects).
   */
  authorize: (request: FastifyRequest, alternatives: readonly (readonly string[])[], reason?: string) => KeyRefusal | undefined
  /**
   * Whether the request's valid key holds `scope`, itself or through one that includes it:
   * a question, not a refusal, so nothing is counted (what an answer may tell the key).
   */
  may: (request: FastifyRequest, scope: string) => boolean
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
function challenge (request: FastifyRequest, lookup: KeyLookup): KeyRefusal {
  const header = request.headers.authorization
  if (header === undefined || header === '') {
    return new KeyRefusal('missing', 'unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>', '')
  }
  if (bearerToken(header) === undefined) {
    return new KeyRefusal('not_bearer', 'unauthorized', 'Authorization header must use the Bearer scheme', '')
  }
  if (lookup !== undefined && 'expired' in lookup) {
    return new KeyRefusal('expired', 'unauthorized', 'The API key has expired', ', error="invalid_token", error_description="the key has expired"')
  }
  return new KeyRefusal('invalid', 'unauthorized', 'Invalid API key', ', error="invalid_token"')
}

/** For each scope, the others that include it (../../contract/scope-inclusion.ts). */
type Including = ReadonlyMap<string, readonly string[]>

/** Whether a key holds every scope of one of the alternatives, each itself or through one that includes it. */
function holds (key: AcceptedKey, alternatives: readonly (readonly string[])[], including: Including): boolean {
  const { scopes } = key
  return scopes === undefined || alternatives.some((needed) => needed.every((scope) =>
    scopes.has(scope) || (including.get(scope)?.some((other) => scopes.has(other)) ?? false)))
}

/**
 * The 403, naming the scopes of the first alternative in the challenge (RFC 6750 section 3:
 * space-separated), and in the message every alternative and the scopes that include them.
 */
function forbidden (request: FastifyRequest, alternatives: readonly (readonly string[])[], including: Including, reason: string | undefined): KeyRefusal {
  const operation = request.routeOptions.config.operationId ?? 'this operation'
  const needed = alternatives.map((scopes) => scopes.join(' and ')).join(', or ')
  const named = [...new Set(alternatives.flat())]
  const notes = named.flatMap((scope) => {
    const others = including.get(scope) ?? []
    return others.length === 0 ? [] : [`${others.join(' or ')} includes ${named.length === 1 ? 'it' : scope}`]
  })
  return new KeyRefusal('insufficient_scope', 'insufficient_scope',
    `This API key lacks the scope ${needed}, which ${operation} needs${reason === undefined ? '' : ` ${reason}`}${notes.length === 0 ? '' : ` (${notes.join('; ')})`}`,
    `, error="insufficient_scope", scope="${alternatives[0]!.join(' ')}"`)
}

/** Not looked up yet: a lookup may find nothing (undefined). */
const NOT_LOOKED_UP = Symbol('not looked up')

declare module 'fastify' {
  interface FastifyRequest {
    /** The request's key lookup, made once, whoever asks first. */
    apiKeyLookup: KeyLookup | typeof NOT_LOOKED_UP
  }
}

export default fp(async function auth (app: FastifyInstance) {
  // On the request itself rather than in a WeakMap keyed by it: an entry of a WeakMap is
  // an ephemeron, which every garbage collection must trace apart, one per request.
  app.decorateRequest('apiKeyLookup', NOT_LOOKED_UP)
  function lookup (request: FastifyRequest): KeyLookup {
    if (request.apiKeyLookup !== NOT_LOOKED_UP) return request.apiKeyLookup
    const token = bearerToken(request.headers.authorization)
    return (request.apiKeyLookup = token === undefined ? undefined : app.apiKeys.identify(token))
  }
  const key = (request: FastifyRequest) => {
    const found = lookup(request)
    return found !== undefined && 'accepted' in found ? found.accepted : undefined
  }

  await app.register(bearerAuth, {
    // Failures come back to `check` below, which answers them with the challenge.
    addHook: false,
    keys: [],
    auth: (_key: string, request: FastifyRequest) => key(request) !== undefined,
    specCompliance: 'rfc6749',
    verifyErrorLogLevel: 'debug'
  })
  const verifyBearerAuth = app.verifyBearerAuth!
  const refused = (request: FastifyRequest, refusal: KeyRefusal): KeyRefusal => {
    app.prometheus?.keyRefused(request.routeOptions.config.operationId ?? 'none', refusal.reason)
    return refusal
  }
  // A valid key passes at once: bearer-auth, which reads the header as `key` does, would
  // only call `auth` above and agree, a turn of the event loop later. Every other request
  // is judged by it.
  const check = (request: FastifyRequest, reply: FastifyReply) => key(request) !== undefined
    ? undefined
    : new Promise<KeyRefusal>((resolve, reject) => {
      verifyBearerAuth(request, reply, (error) => {
        const code = (error as { code?: string } | undefined)?.code ?? ''
        if (code.startsWith('FST_BEARER_AUTH_')) resolve(refused(request, challenge(request, lookup(request))))
        else reject(error ?? new Error('the bearer check accepted a key the key ring refused'))
      })
    })
  const including = scopesIncluding(app.apiKeys.everyScope)
  const authorize = (request: FastifyRequest, alternatives: readonly (readonly string[])[], reason?: string) =>
    holds(key(request)!, alternatives, including) ? undefined : refused(request, forbidden(request, alternatives, including, reason))
  const may = (request: FastifyRequest, scope: string) => holds(key(request)!, [[scope]], including)
  app.decorate('auth', { key, check, authorize, may })
}, { name: 'auth', dependencies: ['api-keys'] })
