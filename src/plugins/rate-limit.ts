/**
 * Rate limits (@fastify/rate-limit), for the scope it is registered in:
 * - a request with a valid API key counts against that key (RATE_LIMIT_MAX a minute; 0 is
 *   no limit), whatever address it comes from;
 * - any other request counts against its address (RATE_LIMIT_ANON_MAX a minute), so a
 *   loop guessing keys is throttled long before it gets anywhere.
 * Over the limit: 429 `rate_limited` with `Retry-After`. Every answer carries the
 * `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset` headers. With Redis the
 * counts are shared by every instance.
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-ratelimit-headers/
 */
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import { ApiError } from '../errors.ts'

export interface RateLimitOptions {
  /** Requests per window for each API key; 0 turns the per-key limit off. */
  perKey: number
  /** Requests per window for each address without a valid key. */
  anonymous: number
  windowMs?: number
  redis?: Redis
}

/** `key:<hash>` for a request with a valid key, `ip:<address>` for any other. */
function bucket (app: FastifyInstance, request: FastifyRequest): string {
  const hash = app.auth.keyHash(request)
  return hash === undefined ? `ip:${request.ip}` : `key:${hash}`
}

export default fp(async function rateLimits (app: FastifyInstance, options: RateLimitOptions) {
  const windowMs = options.windowMs ?? 60_000
  await app.register(rateLimit, {
    global: true,
    timeWindow: windowMs,
    enableDraftSpec: true,
    redis: options.redis,
    // A Redis outage must not take the API down with it: requests then go uncounted.
    skipOnError: true,
    nameSpace: 'petstore-rate-limit:',
    keyGenerator: (request) => bucket(app, request),
    max: async (_request, key) => key.startsWith('key:') ? options.perKey : options.anonymous,
    allowList: (_request, key) => options.perKey === 0 && key.startsWith('key:'),
    errorResponseBuilder: (_request, context) =>
      new ApiError('rate_limited', `Rate limit of ${context.max} requests per ${windowMs / 1000} s exceeded; retry in ${context.after}`)
  })
}, { name: 'rate-limit', dependencies: ['auth'] })
