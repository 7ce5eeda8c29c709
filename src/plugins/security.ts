/**
 * Security headers (helmet), two sets:
 * - `apiSecurity`, on every answer: what a JSON API needs (OWASP REST Security): no content
 *   may run or be framed, no sniffing, HTTPS only, no referrer.
 * - `docsPageSecurity`, added by the docs scope (./docs.ts): helmet's full set, with a
 *   Content-Security-Policy that allows what Swagger UI needs and nothing else: its own
 *   scripts and styles, the inline styles it sets, data: images and fonts, and calls to this
 *   same origin for "Try it out".
 *
 * helmet is used directly rather than through @fastify/helmet, which builds a new helmet
 * middleware, parsing every directive again, on each request; here each is built once.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import helmet from 'helmet'

type Middleware = ReturnType<typeof helmet>

function asHook (setHeaders: Middleware) {
  return (request: { raw: Parameters<Middleware>[0] }, reply: { raw: Parameters<Middleware>[1] }, done: (error?: Error) => void) => {
    setHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined))
  }
}

const apiHeaders = helmet({
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: { policy: 'same-origin' },
  originAgentCluster: false,
  referrerPolicy: { policy: 'no-referrer' },
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xFrameOptions: { action: 'deny' },
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false
})

const docsPageHeaders = helmet({
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
  // The page embeds nothing cross-origin; its assets are same-origin.
  crossOriginEmbedderPolicy: false,
  // As frame-ancestors 'none' says, for browsers that only read this header.
  xFrameOptions: { action: 'deny' }
})

/** The docs page's headers, for the scope that serves it. */
export const docsPageSecurity = asHook(docsPageHeaders)

export default fp(async function apiSecurity (app: FastifyInstance) {
  app.addHook('onRequest', asHook(apiHeaders))
}, { name: 'security' })
