/**
 * Prometheus metrics (prom-client, through fastify-metrics), as the `prometheus` decorator;
 * undefined when METRICS_PORT is not set, and then neither module is even loaded. They are
 * served on a listener of their own (./server.ts), never on the API port.
 *
 * - `http_request_duration_seconds{operation, method, status_class}`: the operationId of an
 *   API operation, the route template of anything else (a 405 too), `none` for a 404;
 *   never a raw URL. Every answer counts, whatever its method.
 * - `rate_limit_refusals_total{limit}`: 429s, by `key` or `address`.
 * - `api_key_refusals_total{operation, reason}`: 401s and 403s of the key check, by
 *   operationId (`none` off the document's operations) and reason (`missing`,
 *   `not_bearer`, `invalid`, `expired`, `insufficient_scope`).
 * - `db_query_duration_seconds{outcome}` and, on PostgreSQL, `db_pool_connections{state}`.
 * - `webhook_deliveries_total{outcome}` (`succeeded`, `failed`) and
 *   `webhook_delivery_seconds`, of the attempts this instance made; `webhook_backlog`, the
 *   deliveries pending in the database (retries scheduled included), and
 *   `webhook_oldest_pending_seconds`, how long the oldest of those already due has waited.
 * - `event_stream_published_total`, the events this instance published to the event stream
 *   and the broker confirmed; `event_stream_backlog`, the events not yet published, and
 *   `event_stream_lag_seconds`, how long the oldest of them has waited (0: none), read from
 *   the database, so every instance reports them.
 * - prom-client's default process and heap metrics.
 * No label holds a credential, an address or anything a client wrote.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { LogEvent } from 'kysely'
import type { Registry } from 'prom-client'

export interface Metrics {
  registry: Registry
  /** Kysely's log callback: times every query. */
  observeQuery: (event: LogEvent) => void
  /** Reports a connection pool's counts when metrics are collected. */
  watchPool: (stats: () => { total: number, idle: number, waiting: number }) => void
  rateLimited: (limit: 'key' | 'address') => void
  /** A 401 or 403 of the key check: the operationId, and why (`expired`, `insufficient_scope`...). */
  keyRefused: (operation: string, reason: string) => void
  /** A webhook delivery attempt made, and how long it took. */
  webhookAttempted: (succeeded: boolean, seconds: number) => void
  /** Reports the deliveries pending when metrics are collected. */
  watchWebhookBacklog: (backlog: () => Promise<{ pending: number, oldestDueSeconds: number }>) => void
  /** Events the broker confirmed. */
  eventStreamPublished: (count: number) => void
  /** Reports the events not yet published when metrics are collected. */
  watchEventStream: (read: () => Promise<{ backlog: number, lagSeconds: number }>) => void
}

declare module 'fastify' {
  interface FastifyInstance {
    prometheus: Metrics | undefined
  }
}

const SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]

/**
 * `read`, run once for the gauges a scrape collects together: the first to ask starts it,
 * the others of that scrape share its answer, and the next scrape reads again.
 */
function oncePerScrape<T> (read: () => Promise<T>): () => Promise<T> {
  let reading: Promise<T> | undefined
  return () => {
    reading ??= read().finally(() => { setImmediate(() => { reading = undefined }) })
    return reading
  }
}

export default fp(async function metrics (app: FastifyInstance, { enabled }: { enabled: boolean }) {
  if (!enabled) {
    app.decorate('prometheus', undefined)
    return
  }
  const { default: client } = await import('prom-client')
  // A CommonJS module with an ES `default` export: Node's default is its module.exports.
  const { default: { default: fastifyMetrics } } = await import('fastify-metrics')
  // A registry per app, so that several apps in one process (tests) never share counts.
  const registry = new client.Registry()
  await app.register(fastifyMetrics, {
    endpoint: null,
    promClient: client,
    defaultMetrics: { enabled: true, register: registry },
    routeMetrics: {
      enabled: { histogram: true, summary: false },
      groupStatusCodes: true,
      // Every answer, not only those of a registered route and method: a 404 is labelled
      // `none` (never its raw URL), and a 405 by the route template of its path.
      registeredRoutesOnly: false,
      invalidRouteGroup: 'none',
      methodBlacklist: [],
      overrides: {
        labels: { route: 'operation', status: 'status_class' },
        histogram: { buckets: SECONDS, registers: [registry] },
        // Off above, but made all the same: kept out of the global registry.
        summary: { registers: [registry] }
      }
    }
  })
  const queries = new client.Histogram({
    name: 'db_query_duration_seconds', help: 'Database query duration in seconds', labelNames: ['outcome'], buckets: SECONDS, registers: [registry]
  })
  const refusals = new client.Counter({
    name: 'rate_limit_refusals_total', help: 'Requests refused with 429, by the limit they were over', labelNames: ['limit'], registers: [registry]
  })
  const keyRefusals = new client.Counter({
    name: 'api_key_refusals_total',
    help: 'Requests refused by the key check (401) or for the scope of their key (403), by operation and reason',
    labelNames: ['operation', 'reason'],
    registers: [registry]
  })
  const deliveries = new client.Counter({
    name: 'webhook_deliveries_total', help: 'Webhook delivery attempts made by this instance, by outcome', labelNames: ['outcome'], registers: [registry]
  })
  // From a fast local receiver to the 30 s timeout at most.
  const deliverySeconds = new client.Histogram({
    name: 'webhook_delivery_seconds', help: 'Webhook delivery attempt duration in seconds', buckets: [...SECONDS, 10, 15, 30], registers: [registry]
  })
  const streamed = new client.Counter({
    name: 'event_stream_published_total', help: 'Events this instance published to the event stream, confirmed by the broker', registers: [registry]
  })
  app.decorate('prometheus', {
    registry,
    observeQuery (event) {
      queries.observe({ outcome: event.level === 'query' ? 'ok' : 'error' }, event.queryDurationMillis / 1000)
    },
    watchPool (stats) {
      // eslint-disable-next-line no-new -- registered with the registry, which keeps it
      new client.Gauge({
        name: 'db_pool_connections',
        help: 'Database pool connections, by state',
        labelNames: ['state'],
        registers: [registry],
        collect () {
          const { total, idle, waiting } = stats()
          this.set({ state: 'total' }, total)
          this.set({ state: 'idle' }, idle)
          this.set({ state: 'waiting' }, waiting)
        }
      })
    },
    rateLimited (limit) { refusals.inc({ limit }) },
    keyRefused (operation, reason) { keyRefusals.inc({ operation, reason }) },
    webhookAttempted (succeeded, seconds) {
      deliveries.inc({ outcome: succeeded ? 'succeeded' : 'failed' })
      deliverySeconds.observe(seconds)
    },
    watchWebhookBacklog (backlog) {
      // One read of the database for both, when a scrape collects the first.
      const read = oncePerScrape(backlog)
      // eslint-disable-next-line no-new -- registered with the registry, which keeps it
      new client.Gauge({
        name: 'webhook_backlog',
        help: 'Webhook deliveries pending, due or scheduled for a retry',
        registers: [registry],
        async collect () { this.set((await read()).pending) }
      })
      // eslint-disable-next-line no-new -- registered with the registry, which keeps it
      new client.Gauge({
        name: 'webhook_oldest_pending_seconds',
        help: 'How long the oldest due webhook delivery has waited, in seconds (0: none waits)',
        registers: [registry],
        async collect () { this.set((await read()).oldestDueSeconds) }
      })
    },
    eventStreamPublished (count) { streamed.inc(count) },
    watchEventStream (stream) {
      const read = oncePerScrape(stream)
      // eslint-disable-next-line no-new -- registered with the registry, which keeps it
      new client.Gauge({
        name: 'event_stream_backlog',
        help: 'Events not yet published to the event stream',
        registers: [registry],
        async collect () { this.set((await read()).backlog) }
      })
      // eslint-disable-next-line no-new -- registered with the registry, which keeps it
      new client.Gauge({
        name: 'event_stream_lag_seconds',
        help: 'How long the oldest event not yet published to the event stream has waited, in seconds (0: none waits)',
        registers: [registry],
        async collect () { this.set((await read()).lagSeconds) }
      })
    }
  } satisfies Metrics)
}, { name: 'metrics' })
