/**
 * The OpenTelemetry Node SDK, started before the service loads (./preload.ts) so that its
 * instrumentations see the modules they patch:
 * - incoming HTTP (a server span per request, the `traceparent` a caller sent as its
 *   parent) and, inside it, Fastify's own spans from `@fastify/otel`: the route, each hook
 *   and the handler;
 * - PostgreSQL statements (pg) and Redis commands (ioredis).
 * SQLite statements and webhook attempts are spans the service makes itself
 * (../database/sqlite.ts, ../features/webhooks/dispatcher.ts): no maintained
 * instrumentation covers better-sqlite3, and an attempt's span carries the change's trace.
 *
 * Everything else comes from the standard `OTEL_*` variables, which the SDK reads itself:
 * the exporter and its endpoint, protocol and headers, the sampler, the service's name and
 * resource. Only traces are sent unless OTEL_METRICS_EXPORTER or OTEL_LOGS_EXPORTER asks for
 * more: the service's metrics are Prometheus's (METRICS_PORT), its logs standard output.
 */
import { FastifyOtelInstrumentation } from '@fastify/otel'
import type { IncomingMessage, RequestOptions } from 'node:http'
import { NodeSDK } from '@opentelemetry/sdk-node'
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http'
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis'
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg'
import { WEBHOOK_USER_AGENT } from '../features/webhooks/attempt.ts'

/** Probes and scrapes, every few seconds, are no request anyone follows. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics'])

function untracedIncoming (request: IncomingMessage): boolean {
  const url = request.url ?? ''
  const query = url.indexOf('?')
  return UNTRACED_PATHS.has(query === -1 ? url : url.slice(0, query))
}

/** A webhook attempt is its own client span already, with the change's trace. */
function untracedOutgoing (options: RequestOptions): boolean {
  const headers = options.headers as Record<string, unknown> | undefined
  return headers?.['user-agent'] === WEBHOOK_USER_AGENT
}

export function startTracing (env: NodeJS.ProcessEnv = process.env): NodeSDK {
  const sdk = new NodeSDK({
    ...(env.OTEL_SERVICE_NAME === undefined && { serviceName: 'petstore-service' }),
    ...(env.OTEL_METRICS_EXPORTER === undefined && { metricReaders: [] }),
    ...(env.OTEL_LOGS_EXPORTER === undefined && { logRecordProcessors: [] }),
    instrumentations: [
      new HttpInstrumentation({ ignoreIncomingRequestHook: untracedIncoming, ignoreOutgoingRequestHook: untracedOutgoing }),
      new FastifyOtelInstrumentation({
        // Every Fastify instance, as it is made: the service's own code names no tracing.
        registerOnInitialization: true,
        ignorePaths: (route) => UNTRACED_PATHS.has(route.url ?? '')
      }),
      new PgInstrumentation(),
      new IORedisInstrumentation()
    ]
  })
  sdk.start()
  return sdk
}
