/**
 * Security headers (helmet). The Content-Security-Policy allows what Swagger UI at /docs
 * needs and nothing else: its own scripts and styles, inline styles it sets, data: images
 * and fonts, and calls to this same origin for "Try it out".
 *
 * helmet is used directly rather than through @fastify/helmet, which builds a new helmet
 * middleware, parsing every directive again, on each request; here it is built once.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import helmet from 'helmet'

export default fp(async function security (app: FastifyInstance) {
  const setHeaders = helmet({
    contentSecurityPolicy: {
      // Every directive is listed here; helmet's defaults would add upgrade-insecure-requests,
      // which breaks "Try it out" wherever the service is reached over plain HTTP.
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        scriptSrcAttr: ["'none'"],
        fontSrc: ["'self'", 'data:'],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"]
      }
    },
    // A JSON API is not embedded cross-origin by design; docs assets are same-origin.
    crossOriginEmbedderPolicy: false
  })
  app.addHook('onRequest', (request, reply, done) => {
    setHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined))
  })
}, { name: 'security' })
