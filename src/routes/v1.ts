/**
 * Everything under /v1. The bearer check is registered in this scope, so every route here
 * needs a key (including its 404s and 405s) and nothing outside it does.
 */
import bearerAuth from '@fastify/bearer-auth'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Clock } from '../deprecation.ts'
import { notFound } from '../plugins/errors.ts'
import rateLimits, { type RateLimitOptions } from '../plugins/rate-limit.ts'
import methodNotAllowed from './method-not-allowed.ts'
import petRoutes from './pets.ts'

export interface V1Options {
  now: Clock
  rateLimit: Omit<RateLimitOptions, 'redis'>
}

export default async function v1 (app: FastifyInstance, { now, rateLimit }: V1Options) {
  // Counted before the key check (see below), so that requests with bad keys are throttled too.
  await app.register(rateLimits, { ...rateLimit, redis: app.redis })
  await app.register(bearerAuth, {
    // Failures go to the one error handler, which adds the WWW-Authenticate challenge.
    addHook: false,
    keys: [],
    auth: (key: string, request: FastifyRequest) => app.apiKeys.identifyFor(request, key) !== undefined,
    // The scheme name is case-insensitive (RFC 9110 section 11.1): `bearer KEY` is valid.
    specCompliance: 'rfc6749',
    verifyErrorLogLevel: 'debug'
  })
  // preParsing, not onRequest: the rate limit is a route-level onRequest hook, and it must
  // count a request before its key is checked. No body is read before the check either way.
  const verifyBearerAuth = app.verifyBearerAuth!
  app.addHook('preParsing', (request, reply, _payload, done) => verifyBearerAuth(request, reply, done))
  app.setNotFoundHandler(notFound)
  await app.register(petRoutes, { now })
  await app.register(methodNotAllowed)
}
