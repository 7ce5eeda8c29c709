/**
 * The spans the service makes itself, read from the SDK's in-memory exporter, on whichever
 * database this run tests: SQLite statements (PostgreSQL's come from its instrumentation,
 * test/process/traces.test.ts), each grouped write in its own caller's trace, the trace
 * kept with each event, a webhook attempt as a client span of the change's trace that
 * sends its `traceparent`, and log lines naming their span. With tracing off, none of it.
 */
import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { context, trace, type Span } from '@opentelemetry/api'
import { InMemorySpanExporter, NodeTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-node'
import { AUTH, build, JSON_HEADERS } from '../helpers/app.ts'
import { captureLog } from '../helpers/log.ts'
import { startReceiver } from '../helpers/receiver.ts'
import { until } from '../helpers/until.ts'
import { isPostgres } from '../../src/database/connect.ts'
import { parseNetworks } from '../../src/config/values.ts'
import { loggerOptions } from '../../src/config/logger.ts'
import { activeTraceFields, contextOf } from '../../src/tracing/trace-context.ts'
import type { AppOptions } from '../../src/app.ts'

const exporter = new InMemorySpanExporter()
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] })
// The global provider, with the AsyncLocalStorage context manager and W3C propagation, as the SDK registers them.
provider.register()
t.teardown(() => provider.shutdown())

const caller = trace.getTracer('test')

/** Runs `work` inside a span of its own (what a traced request is), and returns both. */
async function inSpan<T> (name: string, work: () => Promise<T>): Promise<{ span: Span, result: T }> {
  const span = caller.startSpan(name)
  try {
    // Awaited inside: `inject` sends its request only once awaited.
    return { span, result: await context.with(trace.setSpan(context.active(), span), async () => await work()) }
  } finally {
    span.end()
  }
}

async function service (t: Test, options: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  exporter.reset()
  const app = await build(t, { traceSqliteStatements: true, ...options, webhooks: { allowedNetworks: parseNetworks('127.0.0.0/8'), retryDelaysMs: [20], pollIntervalMs: 20, ...options.webhooks } })
  // Ready first: a request injected before would run in the start's context, not its caller's.
  await app.ready()
  return app
}

const addPet = (app: FastifyInstance, name: string) =>
  app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name, categoryId: 1, status: 'available' } })

const statementsOf = (span: Span) => exporter.getFinishedSpans()
  .filter((s) => s.spanContext().traceId === span.spanContext().traceId && s.attributes['db.system.name'] === 'sqlite')

t.test('SQLite statements are spans of the trace that ran them, each grouped write its own caller\'s', async (t) => {
  const app = await service(t)
  if (isPostgres(app.db)) {
    t.pass('PostgreSQL\'s statements are its instrumentation\'s (test/process/traces.test.ts)')
    return
  }
  // Two creates at once: one group commit, each write in its own request's trace.
  const [rex, bella] = await Promise.all([inSpan('rex', () => addPet(app, 'Rex')), inSpan('bella', () => addPet(app, 'Bella'))])
  t.equal(rex.result.statusCode, 201)
  t.equal(bella.result.statusCode, 201)
  for (const { span } of [rex, bella]) {
    const inserts = statementsOf(span).filter((s) => s.name === 'insert' && /insert into "pets"/.test(String(s.attributes['db.query.text'])))
    t.equal(inserts.length, 1, 'the pet\'s insert is a span of its own request\'s trace')
    t.equal(inserts[0]?.kind, 2, 'a client span')
    t.equal(inserts[0]?.parentSpanContext?.spanId, span.spanContext().spanId, 'a child of the span active when it was asked for')
  }
  // A statement that fails as it runs is a span with the error.
  await t.rejects(inSpan('bad', () => sql`select json(${'{'}) as parsed`.execute(app.db)))
  const failed = exporter.getFinishedSpans().find((s) => s.name === 'select' && /json\(/.test(String(s.attributes['db.query.text'])))
  t.equal(failed?.status.code, 2, 'a failed statement\'s span says so')
  t.match(failed?.status.message, /malformed JSON/)
})

t.test('with tracing off, no statement is a span', async (t) => {
  const app = await service(t, { traceSqliteStatements: false })
  const { span, result } = await inSpan('request', () => addPet(app, 'Rex'))
  t.equal(result.statusCode, 201)
  t.same(statementsOf(span), [])
})

t.test('each event keeps the trace of the change that wrote it', async (t) => {
  const app = await service(t)
  const { span } = await inSpan('create', () => addPet(app, 'Rex'))
  const untraced = await addPet(app, 'Bella')
  t.equal(untraced.statusCode, 201)
  const rows = await app.db.selectFrom('events').select(['data', 'trace_context']).execute()
  const { traceId, spanId } = span.spanContext()
  const kept = Object.fromEntries(rows.map((row) => [JSON.parse(row.data).name, row.trace_context]))
  t.same(kept, { Rex: `00-${traceId}-${spanId}-01`, Bella: null }, 'the traced change\'s traceparent; none outside a trace')
})

t.test('a webhook attempt is a client span of the change\'s trace, linked to it, and sends its traceparent', async (t) => {
  const app = await service(t)
  // A failure, then a success, whatever the pace of the retry.
  const receiver = await startReceiver(t, (count) => ({ status: count === 1 ? 500 : 204 }))
  const added = await app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: JSON_HEADERS, payload: { url: receiver.url, events: ['pet.*'] } })
  t.equal(added.statusCode, 201)
  const { span } = await inSpan('create', () => addPet(app, 'Rex'))
  const { traceId, spanId } = span.spanContext()
  await until(() => receiver.received.length >= 2, 'the retry')
  await until(() => exporter.getFinishedSpans().filter((s) => s.name === 'webhook delivery').length >= 2, 'both attempts\' spans')
  const attempts = exporter.getFinishedSpans().filter((s) => s.name === 'webhook delivery')
  attempts.forEach((attempt, i) => {
    t.equal(attempt.spanContext().traceId, traceId, `attempt ${i + 1} is in the change's trace`)
    t.equal(attempt.parentSpanContext?.spanId, spanId, 'a child of the change\'s span')
    t.same(attempt.links.map((link) => link.context.spanId), [spanId], 'and linked to it')
    t.equal(attempt.kind, 2, 'a client span')
    t.equal(receiver.received[i]!.headers.traceparent, `00-${traceId}-${attempt.spanContext().spanId}-01`, 'its own traceparent went with it')
    t.equal(attempt.attributes['webhook.attempt'], i + 1)
    t.equal(attempt.attributes['webhook.event.type'], 'pet.created')
  })
  t.equal(attempts[0]!.attributes['http.response.status_code'], 500)
  t.equal(attempts[0]!.attributes['error.type'], 'http_status')
  t.equal(attempts[0]!.status.code, 2, 'a failed attempt\'s span is an error')
  t.equal(attempts[1]!.attributes['http.response.status_code'], 204)
  t.equal(attempts[1]!.status.code, 0, 'a delivered one\'s is not')
  t.equal(receiver.received.length, 2)
})

t.test('log lines name the span they were written in; with tracing off, none does', async (t) => {
  for (const tracing of [true, false]) {
    const log = captureLog()
    const app = await service(t, { traceSqliteStatements: tracing, logger: { ...loggerOptions({ level: 'info', format: 'json' }, false, tracing ? activeTraceFields : undefined), stream: log.stream } })
    const { span, result } = await inSpan('request', () => app.inject({ url: '/v1/pets/999', headers: AUTH }))
    t.equal(result.statusCode, 404)
    const lines = log.lines.filter((line) => line.reqId === result.headers['x-request-id'])
    t.ok(lines.length > 0, 'the request was logged')
    if (tracing) t.ok(lines.every((line) => line.trace_id === span.spanContext().traceId && line.span_id === span.spanContext().spanId), 'every line names the trace and span')
    else t.ok(lines.every((line) => !('trace_id' in line)), 'no line names a trace')
  }
})

t.test('a kept trace that is not a traceparent is no parent', async (t) => {
  t.equal(trace.getSpanContext(contextOf('not-a-traceparent')), undefined)
  t.equal(trace.getSpanContext(contextOf(null)), undefined)
  t.match(trace.getSpanContext(contextOf(`00-${'a'.repeat(32)}-${'b'.repeat(16)}-00`)), { traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: 0, isRemote: true })
})
