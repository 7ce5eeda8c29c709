/**
 * Traces from the outside: the service as `npm start` runs it, with
 * OTEL_EXPORTER_OTLP_ENDPOINT pointing at an OTLP receiver the test runs. One request that
 * places an order, sent with a caller's `traceparent`, is one trace: the request's spans,
 * its database statements and the webhook delivery it caused, whose receiver gets a
 * `traceparent` of that trace; and each of the request's log lines names it. On SQLite,
 * and on PostgreSQL with Redis (their instrumentations' spans).
 */
import t, { type Test } from 'tap'
import { callerSpan, CLIENT, SERVER, startOtlpReceiver, startTracedServer, type ReceivedSpan } from '../helpers/otlp-receiver.ts'
import { startReceiver } from '../helpers/receiver.ts'
import { createPostgresDatabase, postgresSkipReason, REDIS_URL, redisSkipReason } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

const KEY = 'traces-process-test-key-not-a-secret'
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }

async function placeOrderTraced (t: Test, env: Record<string, string>, database: string) {
  const otlp = await startOtlpReceiver(t)
  const hooks = await startReceiver(t)
  const server = await startTracedServer(t, otlp, KEY, env)
  const pet = await (await fetch(`${server.base}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' }) })).json() as { id: number }
  const endpoint = await fetch(`${server.base}/v1/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: hooks.url, events: ['order.*'] }) })
  t.equal(endpoint.status, 201, 'an endpoint for orders')

  const caller = callerSpan()
  const placed = await fetch(`${server.base}/v1/store/orders`, {
    method: 'POST', headers: { ...headers, traceparent: caller.traceparent }, body: JSON.stringify({ petId: pet.id, quantity: 1 })
  })
  t.equal(placed.status, 201, 'the order is placed')
  const requestId = placed.headers.get('x-request-id')

  await until(() => hooks.received.length > 0, 'the order\'s delivery')
  const delivered = hooks.received[0]!
  const sent = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/.exec(String(delivered.headers.traceparent))
  t.ok(sent, `the delivery carries a traceparent: ${delivered.headers.traceparent}`)
  t.equal(sent?.[1], caller.traceId, 'of the order\'s trace')

  const inTrace = () => otlp.spans.filter((span) => span.traceId === caller.traceId)
  const named = (predicate: (span: ReceivedSpan) => boolean) => inTrace().find(predicate)
  await until(() => named((span) => span.name === 'webhook delivery') !== undefined && named((span) => span.kind === SERVER) !== undefined,
    'the request\'s and the delivery\'s spans at the receiver')
  const server_ = named((span) => span.kind === SERVER)!
  t.equal(server_.parentSpanId, caller.spanId, 'the request\'s span is the caller\'s child: its traceparent is honoured')
  t.equal(server_.name, 'POST /v1/store/orders', 'named by its method and route')
  t.equal(server_.resource['service.name'], 'petstore-under-test', 'the environment names the service')
  t.ok(named((span) => span.attributes['http.route'] === '/v1/store/orders' || span.attributes['http.route'] === '/store/orders'), 'Fastify\'s span names the route')
  const statements = inTrace().filter((span) => span.attributes['db.system.name'] === database)
  t.ok(statements.some((span) => /insert into "?orders/i.test(String(span.attributes['db.query.text']))),
    `the order's insert is a span of the trace (${statements.length} statements)`)

  const delivery = named((span) => span.name === 'webhook delivery')!
  t.equal(delivery.kind, CLIENT, 'the delivery is a client span')
  t.equal(delivery.spanId, sent?.[2], 'whose id the receiver was sent')
  t.equal(delivery.attributes['http.response.status_code'], 204)
  t.equal(delivery.attributes['webhook.event.type'], 'order.placed')
  t.ok(inTrace().some((span) => span.spanId === delivery.parentSpanId), 'its parent is a span of the request')
  t.same(delivery.links.map((link) => link.traceId), [caller.traceId], 'and it is linked to the change')

  // The request's log lines name its trace.
  const lines = server.output().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line) as Record<string, unknown>)
  const ofRequest = lines.filter((line) => line.reqId === requestId)
  t.ok(ofRequest.length > 0, 'the request was logged')
  t.ok(ofRequest.every((line) => line.trace_id === caller.traceId), 'every line of the request carries its trace_id')
  t.same(otlp.others, [], 'nothing but traces was sent')
  return { otlp, server, traceId: caller.traceId }
}

t.test('one order placed is one trace: the request, its statements and the delivery it caused (SQLite)', async (t) => {
  const { otlp, server } = await placeOrderTraced(t, {}, 'sqlite')
  // Probes are left out of traces.
  const before = otlp.spans.length
  t.equal((await fetch(`${server.base}/healthz`)).status, 200)
  const pets = await fetch(`${server.base}/v1/pets`, { headers })
  t.equal(pets.status, 200)
  await until(() => otlp.spans.some((span) => span.kind === SERVER && span.attributes['url.path'] === '/v1/pets' && span.attributes['http.request.method'] === 'GET'), 'the listing\'s span')
  t.notOk(otlp.spans.slice(before).some((span) => String(span.attributes['url.path'] ?? span.attributes['http.target']).startsWith('/healthz')), 'no span for a probe')
})

const skip = await postgresSkipReason() || await redisSkipReason()

t.test('on PostgreSQL with Redis, pg\'s and ioredis\'s spans are part of the trace', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  const { otlp, traceId } = await placeOrderTraced(t, { DATABASE_URL: url, REDIS_URL, OTEL_RESOURCE_ATTRIBUTES: 'service.name=petstore-under-test,deployment.environment.name=test' }, 'postgresql')
  t.ok(otlp.spans.some((span) => span.traceId === traceId && span.attributes['db.system.name'] === 'redis'), 'the request\'s Redis commands are spans of its trace')
})
