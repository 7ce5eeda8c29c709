/**
 * buildApp: registers the plugins, then the routes. It never listens (see server.ts), so
 * tests drive it with `inject()`.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import { clientErrorHandler } from './http/parser-errors.ts'
import type { Config } from './config/config.ts'
import { DEFAULTS } from './config/defaults.ts'
import type { DatabaseSettings } from './config/settings.ts'
import { ApiError } from './http/error-codes.ts'
import { apiDocument, type ApiDocument } from './contract/document.ts'
import { checkDocument } from './contract/start-checks.ts'
import { declaredScopes } from './contract/operation-security.ts'
import type { Clock } from './contract/operation-hooks.ts'
import apiKeys from './features/api-keys/plugin.ts'
import auth from './features/api-keys/auth.ts'
import database from './database/plugin.ts'
import idempotency from './features/idempotency/plugin.ts'
import { idempotentCreates } from './features/idempotency/idempotent.ts'
import metrics from './features/metrics/plugin.ts'
import docs from './features/docs/plugin.ts'
import events from './features/events/plugin.ts'
import { EMITTED_EVENTS } from './features/events/types.ts'
import { readableEvents } from './features/events/readable.ts'
import { waitingReads } from './features/events/waiting.ts'
import webhooks, { type WebhooksOptions } from './features/webhooks/plugin.ts'
import eventStream from './features/event-stream/plugin.ts'
import errors, { sendError } from './http/error-handler.ts'
import pressure from './http/pressure.ts'
import rateLimits from './features/rate-limit/plugin.ts'
import redis from './features/rate-limit/redis.ts'
import requestIds from './http/request-id-plugin.ts'
import requireHost from './http/require-host.ts'
import responseCache from './features/response-cache/plugin.ts'
import { cachedReadsAroundDeadline, cachedReadsWithinDeadline } from './features/response-cache/cached.ts'
import security, { API_SECURITY_HEADERS } from './http/security-headers.ts'
import specRoutes, { type SpecRoutesOptions } from './contract/wiring.ts'
import validation from './contract/validation.ts'
import { REQUEST_ID_HEADER, requestId } from './http/request-id.ts'
import { RequestLog } from './http/request-log.ts'
import health from './features/health/routes.ts'
import { handlers } from './features/handlers.ts'

/** The settings buildApp takes as they are in Config (./config/config.ts). */
type AppSettings = 'apiKeys' | 'bodyLimit' | 'trustProxy' | 'redisUrl' | 'redisCommandTimeoutMs' | 'responseCacheBytes' |
  'rowChangesPruneIntervalMs' | 'keySyncIntervalMs'

/**
 * The service's settings, Config's by area, each one optional (DEFAULTS, ./config/defaults.ts,
 * fills in the rest) but the database's URL; and what tests give in place of the service's own.
 */
export interface AppOptions extends Partial<Pick<Config, AppSettings>> {
  database: Pick<DatabaseSettings, 'url'> & Partial<DatabaseSettings>
  rateLimit?: Partial<Config['rateLimit']>
  pressure?: Partial<Config['pressure']>
  /** shutdownGraceMs among them is the server's, not the app's. */
  timeouts?: Partial<Config['timeouts']>
  idempotency?: Partial<Config['idempotency']>
  events?: Partial<Config['events']>
  eventStream?: Partial<Config['eventStream']>
  /** With, from tests, their own host lookups and measure of busyness (`lookup`, `busy`). */
  webhooks?: Partial<Omit<WebhooksOptions, 'databaseUrl'>>
  /**
   * With tracing on (src/tracing/), SQLite's statements are spans. The SDK, started before
   * the app, makes the other spans; tracing off, nothing here makes any.
   */
  traceSqliteStatements?: boolean
  /** Collect Prometheus metrics (`app.prometheus.registry`); server.ts serves them on METRICS_PORT. */
  metrics?: boolean
  /** The clock deprecation sunsets are checked against; tests move it. */
  now?: Clock
  logger?: FastifyServerOptions['logger']
  /** Another OpenAPI document and its handlers, in place of the service's own (tests use fixtures). */
  document?: ApiDocument
  handlers?: SpecRoutesOptions['handlers']
}

/**
 * The service's options from its settings, as `npm start` builds it (the logger aside):
 * every area of Config but the server's own (where it listens, its logger, its metrics
 * listener) and tracing, which only says whether SQLite's statements are spans.
 */
export function appOptions (config: Config): AppOptions {
  const { port, host, log, metricsPort, metricsHost, metricsKeepAliveMs, tracing, ...settings } = config
  return { ...settings, metrics: metricsPort !== undefined, traceSqliteStatements: tracing.enabled && tracing.sqliteStatements }
}

function hopsTrusted (hops: number) {
  return (_address: string, hop: number) => hop < hops
}

export async function buildApp (options: AppOptions): Promise<FastifyInstance> {
  const timeouts = { ...DEFAULTS.timeouts, ...options.timeouts }
  const trustProxy = options.trustProxy ?? DEFAULTS.trustProxy
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? DEFAULTS.bodyLimit,
    // A hop count trusts that many proxies in front of the service, nearest first.
    trustProxy: typeof trustProxy === 'number' ? hopsTrusted(trustProxy) : trustProxy,
    genReqId: requestId,
    // One line per request instead of Fastify's two.
    logController: new RequestLog(),
    // Slow or idle clients cannot hold sockets for long (slow-loris): the headers must
    // arrive within headersMs, the whole request within requestMs.
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionTimeout: timeouts.connectionMs,
    http: {
      headersTimeout: timeouts.headersMs,
      // How often Node checks those two deadlines (its default is 30 s).
      connectionsCheckingInterval: Math.min(1000, timeouts.headersMs),
      // Refused by ./http/require-host.ts instead, with the Error body.
      requireHostHeader: false
    },
    // While draining, a request already on an open connection is served as usual (with
    // `Connection: close`) rather than refused with Fastify's own 503 body: the database
    // stays open until the last one is answered, and nothing is lost either way.
    return503OnClosing: false,
    clientErrorHandler,
    // Errors raised before routing (a malformed URL) get the Error body too, and, since no
    // hook runs for them, the request id and the security headers here.
    frameworkErrors (error, request, reply) {
      reply.headers(API_SECURITY_HEADERS).header(REQUEST_ID_HEADER, request.id)
      sendError(reply, new ApiError('invalid_request', error.message))
    }
  })
  if (trustProxy === true) {
    app.log.warn('TRUST_PROXY=true believes any X-Forwarded-For, so a client can choose the address it is rate limited as; ' +
      'list the proxies (TRUST_PROXY=10.0.0.0/8) or give their number (TRUST_PROXY=1) instead')
  }
  try {
    await app.register(metrics, { enabled: options.metrics === true })
    await app.register(errors)
    await app.register(requestIds)
    await app.register(pressure, { ...DEFAULTS.pressure, ...options.pressure })
    await app.register(security)
    await app.register(requireHost)
    await app.register(validation)
    await app.register(database, { ...DEFAULTS.database, ...options.database, traced: options.traceSqliteStatements === true })
    await app.register(responseCache, {
      maxBytes: options.responseCacheBytes ?? DEFAULTS.responseCacheBytes,
      pruneIntervalMs: options.rowChangesPruneIntervalMs ?? DEFAULTS.rowChangesPruneIntervalMs
    })
    const document = options.document ?? apiDocument
    // The service's handlers emit its events; a fixture's handlers emit none.
    checkDocument(document, options.document === undefined || options.handlers === undefined ? EMITTED_EVENTS : {})
    await app.register(apiKeys, {
      environmentKeys: options.apiKeys ?? [],
      everyScope: [...declaredScopes(document).keys()],
      syncIntervalMs: options.keySyncIntervalMs ?? DEFAULTS.keySyncIntervalMs
    })
    await app.register(auth)
    await app.register(idempotency, { ...DEFAULTS.idempotency, ...options.idempotency })
    await app.register(redis, { url: options.redisUrl, commandTimeoutMs: options.redisCommandTimeoutMs ?? DEFAULTS.redisCommandTimeoutMs })
    await app.register(rateLimits, { ...DEFAULTS.rateLimit, ...options.rateLimit })
    await app.register(events, { document, ...DEFAULTS.events, ...options.events })
    await app.register(webhooks, { ...DEFAULTS.webhooks, ...options.webhooks, databaseUrl: options.database.url })
    await app.register(eventStream, { ...DEFAULTS.eventStream, ...options.eventStream })
    await app.register(docs, { document })
    await app.register(health)
    await app.register(specRoutes, {
      document,
      handlers: options.handlers ?? handlers,
      now: options.now ?? (() => new Date()),
      responseTimeoutMs: timeouts.responseMs,
      // A create's transaction waits on the database with it, as a cache lookup does on
      // PostgreSQL; on SQLite a cache hit waits on nothing but the end of its turn.
      // A feed reader's wait is between reads, each within the deadline: waiting is no 503.
      // What a key may read of the feed is known before the cache is asked.
      wrappers: { insideDeadline: [idempotentCreates, cachedReadsWithinDeadline], outsideDeadline: [cachedReadsAroundDeadline, waitingReads, readableEvents] }
    })
  } catch (error) {
    // Whatever started (the database, timers) stops with the failed start.
    await app.close()
    throw error
  }
  return app
}
