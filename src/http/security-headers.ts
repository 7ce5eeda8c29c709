/**
 * Security headers (helmet), two sets:
 * - `apiSecurity`, on every answer: what a JSON API needs (OWASP REST Security): no content
 *   may run or be framed, no sniffing, HTTPS only, no referrer.
 * - `docsPageSecurity`, added by the docs scope (../features/docs/plugin.ts): helmet's full set, with a
 *   Content-Security-Policy that allows what Swagger UI needs and nothing else: its own
 *   scripts and styles, the inline styles it sets, data: images and fonts, and calls to this
 *   same origin for "Try it out".
 *
 * helmet is used directly rather than through @fastify/helmet, which builds a new helmet
 * middleware, parsing every directive again, on each request; here each is built once.
 * Neither set depends on the request, so each is computed once, as plain headers: the
 * framework's own early errors (a malformed URL) carry the API's set too, and each answer
 * only copies one.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import helmet from 'helmet'

type Middleware = ReturnType<typeof helmet>

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

/** The headers a helmet middleware sets, read once by running it against a recorder. */
function headersOf (setHeaders: Middleware): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {}
  const response = {
    setHeader: (name: string, value: string) => { headers[name.toLowerCase()] = value },
    removeHeader: (name: string) => { delete headers[name.toLowerCase()] }
  }
  setHeaders({} as Parameters<Middleware>[0], response as unknown as Parameters<Middleware>[1], () => {})
  return headers
}

/** The security headers of every answer but the docs page's. */
export const API_SECURITY_HEADERS = headersOf(apiHeaders)

const DOCS_PAGE_HEADERS = headersOf(docsPageHeaders)

/** The docs page's headers, for the scope that serves it: they replace the API's set. */
export function docsPageSecurity (_request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  reply.headers(DOCS_PAGE_HEADERS)
  done()
}

export default fp(async function apiSecurity (app: FastifyInstance) {
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(API_SECURITY_HEADERS)
    done()
  })
}, { name: 'security' })
