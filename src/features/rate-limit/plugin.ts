/**
 * Rate limits (rate-limiter-flexible), as the `rateLimits` decorator that the API scope's
 * guard asks in turn (../../contract/guard.ts):
 * - every request with a valid API key counts against that key (RATE_LIMIT_MAX a minute;
 *   0 is no limit), whatever address it comes from, and never against its address;
 * - every failed key check, and every request to an operation that needs no key, counts
 *   against the client address (RATE_LIMIT_ANON_MAX a minute). Once an address is over
 *   that allowance, every request from it is refused before any key is checked, the right
 *   key included, so guessing keys learns nothing until the window passes.
 * Over a limit: 429 `rate_limited` with `Retry-After`. Answers carry `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset`. With Redis the counts are shared by every
 * instance; if Redis fails, each instance counts in its own memory until it is back.
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible'
import { clientAddress } from './client-address.ts'
import type { RateLimitSettings } from '../../config/settings.ts'
import { ApiError } from '../../http/error-codes.ts'

export interface RateLimits {
  /** 429 when the request's address is over its allowance; counts nothing. */
  refuseBlockedAddress: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
  /** Counts a failed or key-less request against its address; 429 past the allowance. */
  countAddress: (request: FastifyRequest, reply: FastifyReply) => Promise<void>
  /** Counts a request against its valid key; 429 past the key's limit. */
  countKey: (request: FastifyRequest, reply: FastifyReply, keyHash: string) => Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    rateLimits: RateLimits
  }
}

function limiter (name: string, points: number, windowMs: number, redis: Redis | undefined): RateLimiterAbstract {
  const duration = windowMs / 1000
  const memory = new RateLimiterMemory({ keyPrefix: name, points, duration })
  if (redis === undefined) return memory
  return new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `petstore-rate-limit:${name}`,
    points,
    duration,
    // A Redis outage must not take the API down, nor lift the limits: each instance then
    // counts in its own memory (`get` and `consume` both fall back to it). While the
    // connection is not ready, which is also while a stalled one is replaced
    // (./redis.ts), no request waits on Redis: the memory answers at once.
    insuranceLimiter: memory,
    rejectIfRedisNotReady: true
  })
}

function setHeaders (reply: FastifyReply, limit: number, state: RateLimiterRes): void {
  reply.header('ratelimit-limit', limit)
  reply.header('ratelimit-remaining', Math.max(0, limit - state.consumedPoints))
  reply.header('ratelimit-reset', Math.ceil(state.msBeforeNext / 1000))
}

function limited (limit: number, windowMs: number, state: RateLimiterRes, what: string): ApiError {
  const seconds = Math.max(1, Math.ceil(state.msBeforeNext / 1000))
  return new ApiError('rate_limited', `Rate limit of ${limit} requests per ${windowMs / 1000} s ${what} exceeded; retry in ${seconds} s`,
    { 'retry-after': String(seconds) })
}

/** Counts one request; answers its state whether or not the limit was passed. */
async function consume (limiter: RateLimiterAbstract, key: string): Promise<{ state: RateLimiterRes, over: boolean }> {
  try {
    return { state: await limiter.consume(key), over: false }
  } catch (rejection) {
    if (rejection instanceof RateLimiterRes) return { state: rejection, over: true }
    throw rejection
  }
}

export default fp(async function rateLimits (app: FastifyInstance, options: RateLimitSettings) {
  const { windowMs } = options
  const addresses = limiter('address', options.anonymous, windowMs, app.redis)
  const keys = options.perKey === 0 ? undefined : limiter('key', options.perKey, windowMs, app.redis)

  /** The 429 for a limit passed, counted in the metrics. */
  function refusal (which: 'key' | 'address', state: RateLimiterRes): ApiError {
    app.prometheus?.rateLimited(which)
    return which === 'key'
      ? limited(options.perKey, windowMs, state, 'for this key')
      : limited(options.anonymous, windowMs, state, 'without a valid key from this address')
  }

  app.decorate('rateLimits', {
    async refuseBlockedAddress (request, reply) {
      const state = await addresses.get(clientAddress(request.ip))
      if (state === null || state.consumedPoints < options.anonymous) return
      setHeaders(reply, options.anonymous, state)
      throw refusal('address', state)
    },
    async countAddress (request, reply) {
      const { state, over } = await consume(addresses, clientAddress(request.ip))
      setHeaders(reply, options.anonymous, state)
      if (over) throw refusal('address', state)
    },
    async countKey (_request, reply, keyHash) {
      if (keys === undefined) return
      const { state, over } = await consume(keys, keyHash)
      setHeaders(reply, options.perKey, state)
      if (over) throw refusal('key', state)
    }
  } satisfies RateLimits)
}, { name: 'rate-limit', dependencies: ['redis', 'metrics'] })
