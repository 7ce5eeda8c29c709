/**
 * An OpenTelemetry collector's front door for one test: an HTTP server on 127.0.0.1 taking
 * OTLP/HTTP JSON (`POST /v1/traces`, as the SDK sends with
 * OTEL_EXPORTER_OTLP_PROTOCOL=http/json) and keeping every span it is sent, flattened with
 * its resource. Closed when the test ends. And the service as `npm start` runs it, sending
 * its spans there (`startTracedServer`), and a caller's span to send requests in.
 */
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import { TEST_SECRETS_KEY } from './app.ts'
import { startServer } from './process.ts'

export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId: string
  name: string
  /** OTLP's numbers: 1 internal, 2 server, 3 client. */
  kind: number
  attributes: Record<string, unknown>
  links: Array<{ traceId: string, spanId: string }>
  /** 2: error. */
  status: { code?: number }
  /** The resource's attributes (`service.name`). */
  resource: Record<string, unknown>
  /** When it started and ended, in nanoseconds since the epoch. */
  startNs: bigint
  endNs: bigint
}

export interface OtlpReceiver {
  /** What OTEL_EXPORTER_OTLP_ENDPOINT says: the SDK adds `/v1/traces`. */
  endpoint: string
  spans: ReceivedSpan[]
  /** Paths of requests it was sent that were not traces (metrics, logs). */
  others: string[]
}

type AnyValue = { stringValue?: string, intValue?: string | number, boolValue?: boolean, doubleValue?: number }

function attributesOf (list: Array<{ key: string, value: AnyValue }> = []): Record<string, unknown> {
  return Object.fromEntries(list.map(({ key, value }) => [key, value.stringValue ?? (value.intValue === undefined ? undefined : Number(value.intValue)) ?? value.boolValue ?? value.doubleValue]))
}

export async function startOtlpReceiver (t: Test): Promise<OtlpReceiver> {
  const receiver: OtlpReceiver = { endpoint: '', spans: [], others: [] }
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => { body += chunk })
    request.on('end', () => {
      if (request.url !== '/v1/traces' || request.headers['content-type'] !== 'application/json') {
        receiver.others.push(request.url ?? '')
        response.writeHead(415).end()
        return
      }
      for (const resourceSpans of JSON.parse(body).resourceSpans ?? []) {
        const resource = attributesOf(resourceSpans.resource?.attributes)
        for (const scopeSpans of resourceSpans.scopeSpans ?? []) {
          for (const span of scopeSpans.spans ?? []) {
            receiver.spans.push({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId ?? '',
              name: span.name,
              kind: span.kind,
              attributes: attributesOf(span.attributes),
              links: (span.links ?? []).map((link: { traceId: string, spanId: string }) => ({ traceId: link.traceId, spanId: link.spanId })),
              status: span.status ?? {},
              resource,
              startNs: BigInt(span.startTimeUnixNano ?? 0),
              endNs: BigInt(span.endTimeUnixNano ?? 0)
            })
          }
        }
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  receiver.endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  t.teardown(async () => {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  })
  return receiver
}

/** OTLP's span kinds. */
export const SERVER = 2
export const CLIENT = 3

/** The built service with tracing on, sending its spans to `otlp` every 100 ms, `key` its API key. */
export async function startTracedServer (t: Test, otlp: OtlpReceiver, key: string, env: Record<string, string> = {}) {
  return await startServer(t, {
    PETSTORE_API_KEYS: key,
    LOG_LEVEL: 'info',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    WEBHOOK_SECRETS_KEY: TEST_SECRETS_KEY,
    OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    // Named by its own variable, or (when a test says) among the resource's attributes.
    ...(env.OTEL_RESOURCE_ATTRIBUTES === undefined && { OTEL_SERVICE_NAME: 'petstore-under-test' }),
    // Spans sent every 100 ms rather than every 5 s: the test waits for them.
    OTEL_BSP_SCHEDULE_DELAY: '100',
    ...env
  }, { built: true })
}

/** A caller's own span: the parent a request's spans must have. */
export function callerSpan () {
  const traceId = randomBytes(16).toString('hex')
  const spanId = randomBytes(8).toString('hex')
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` }
}
