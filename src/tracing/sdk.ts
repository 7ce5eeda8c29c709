/**
 * The OpenTelemetry Node SDK, started before the service loads (./preload.ts) so that its
 * instrumentations see the modules they patch:
 * - Fastify's own, `@fastify/otel`: a server span per request, named by its method and route,
 *   the child of the `traceparent` a caller sent, and its handler's span;
 * - outgoing HTTP, PostgreSQL statements (pg) and Redis commands (ioredis).
 * Not incoming HTTP as well: its server span would only wrap Fastify's, and would cost a
 * traced request much of its rate (docs/performance.md#tracing).
 * SQLite statements and webhook attempts are spans the service makes itself
 * (./sqlite-spans.ts, ../features/webhooks/traced-attempt.ts): no maintained
 * instrumentation covers better-sqlite3, and an attempt's span carries the change's trace.
 *
 * Everything else comes from the standard `OTEL_*` variables, which the SDK reads itself:
 * the exporter and its endpoint, protocol and headers, the sampler, the service's name and
 * resource; and which instrumentations are on (../config/tracing.ts). Only traces are sent
 * unless OTEL_METRICS_EXPORTER or OTEL_LOGS_EXPORTER asks for more: the service's metrics
 * are Prometheus's (METRICS_PORT), its logs standard output.
 */
import { FastifyOtelInstrumentation } from '@fastify/otel'
import type { RequestOptions } from 'node:http'
import { NodeSDK } from '@opentelemetry/sdk-node'
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http'
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis'
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg'
import { WEBHOOK_USER_AGENT } from './webhook-user-agent.ts'
import { instrumentationEnabled, type Instrumentation } from '../config/tracing.ts'

/** Probes, every few seconds, are no request anyone follows. */
const UNTRACED_ROUTES = new Set(['/healthz', '/readyz'])

/** A webhook attempt is its own client span already, with the change's trace. */
function untracedOutgoing (options: RequestOptions): boolean {
  const headers = options.headers as Record<string, unknown> | undefined
  return headers?.['user-agent'] === WEBHOOK_USER_AGENT
}

/** Whether the environment names the service, by its own variable or among the resource's attributes. */
function named (env: NodeJS.ProcessEnv): boolean {
  return env.OTEL_SERVICE_NAME !== undefined || /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? '')
}

export function startTracing (env: NodeJS.ProcessEnv = process.env): NodeSDK {
  const on = (name: Instrumentation) => instrumentationEnabled(env, name)
  const sdk = new NodeSDK({
    ...(!named(env) && { serviceName: 'petstore-service' }),
    ...(env.OTEL_METRICS_EXPORTER === undefined && { metricReaders: [] }),
    ...(env.OTEL_LOGS_EXPORTER === undefined && { logRecordProcessors: [] }),
    instrumentations: [
      on('http') && new HttpInstrumentation({ disableIncomingRequestInstrumentation: true, ignoreOutgoingRequestHook: untracedOutgoing }),
      on('fastify') && new FastifyOtelInstrumentation({
        // Every Fastify instance, as it is made: the service's own code names no tracing.
        registerOnInitialization: true,
        // The request's span and its handler's, not one more for each of its hooks: a span
        // each costs a traced request dearly and tells little (docs/performance.md#tracing),
        // and its statements show where its time goes.
        instrumentHooks: false,
        ignorePaths: (route) => UNTRACED_ROUTES.has(route.url ?? ''),
        // `POST /v1/store/orders` where the instrumentation says `request`; the method alone
        // where no route matched (a 404), as the HTTP conventions name such a span.
        requestHook: (span, request) => { span.updateName(request.routeOptions.url === undefined ? request.method : `${request.method} ${request.routeOptions.url}`) }
      }),
      // Statements and commands inside a trace only: a poll, a probe or a migration is no
      // request, and would otherwise be a trace of its own, every second of an idle service.
      on('pg') && new PgInstrumentation({ requireParentSpan: true }),
      on('ioredis') && new IORedisInstrumentation({ requireParentSpan: true })
    ].filter((instrumentation) => instrumentation !== false)
  })
  sdk.start()
  return sdk
}
