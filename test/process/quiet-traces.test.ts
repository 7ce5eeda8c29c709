/**
 * A trace is one request and what it caused, from the outside: the service as `npm start`
 * runs it, sending spans to an OTLP receiver the test runs. An idle service and its probes
 * send nothing; background work (claims, the numbering pass, key reloads, polls) makes no
 * span, and never lands in the trace of the request that woke it; each request's trace
 * holds its own spans, ended with it, and the webhook deliveries of its change. On one
 * instance on SQLite, and on two sharing PostgreSQL.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import t, { type Test } from 'tap'
import { callerSpan, SERVER, startOtlpReceiver, startTracedServer, type OtlpReceiver } from '../helpers/otlp-receiver.ts'
import type { ServerProcess } from '../helpers/process.ts'
import { startReceiver } from '../helpers/receiver.ts'
import { createPostgresDatabase, postgresSkipReason } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

const KEY = 'quiet-traces-test-key-not-a-secret'
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
/**
 * The SDK starts a span at Date.now(), in whole milliseconds, and ends it by the monotonic
 * clock, so a statement run in a request's last millisecond can seem to begin just after
 * it ended (opentelemetry-js#5019). Later than this, it surely began after.
 */
const START_PRECISION_NS = 1_000_000n

/**
 * An idle spell and probes, then a sequence of requests spread over `servers`, each a trace:
 * an endpoint added, a pet, and an order placed with a caller's `traceparent` (its delivery
 * a span of that trace); then a last request to each, whose spans, once received, follow
 * every span its process sent before them.
 */
async function idleProbesAndRequests (t: Test, otlp: OtlpReceiver, servers: ServerProcess[]) {
  const hooks = await startReceiver(t)
  // Long enough for every once-a-second loop (key reloads, polls, the due check) to run twice.
  await sleep(2500)
  for (const server of servers) {
    for (let i = 0; i < 3; i++) {
      t.equal((await fetch(`${server.base}/healthz`)).status, 200)
      t.equal((await fetch(`${server.base}/readyz`)).status, 200)
    }
  }
  const [first, last] = [servers[0]!, servers.at(-1)!]
  const endpoint = await fetch(`${first.base}/v1/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url: hooks.url, events: ['*'] }) })
  t.equal(endpoint.status, 201)
  const pet = await fetch(`${last.base}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' }) })
  t.equal(pet.status, 201)
  const caller = callerSpan()
  const order = await fetch(`${first.base}/v1/store/orders`, {
    method: 'POST', headers: { ...headers, traceparent: caller.traceparent }, body: JSON.stringify({ petId: (await pet.json() as { id: number }).id })
  })
  t.equal(order.status, 201)
  await until(() => hooks.received.length === 3, 'the pet\'s and the order\'s deliveries')
  await until(() => otlp.spans.filter((span) => span.traceId === caller.traceId && span.name === 'webhook delivery').length === 2, 'the order\'s deliveries as spans of its trace')
  for (const server of servers) {
    const marker = callerSpan()
    t.equal((await fetch(`${server.base}/v1/pets`, { headers: { ...headers, traceparent: marker.traceparent } })).status, 200)
    await until(() => otlp.spans.some((span) => span.traceId === marker.traceId && span.kind === SERVER), 'the last request\'s span')
  }

  const requests = otlp.spans.filter((span) => span.kind === SERVER)
  t.equal(requests.length, 3 + servers.length, 'a server span for each request, none for a probe')
  const traces = new Set(requests.map((span) => span.traceId))
  const strays = otlp.spans.filter((span) => !traces.has(span.traceId))
  t.same(strays.map((span) => `${span.name}: ${String(span.attributes['db.query.text'] ?? '')}`), [], 'no span outside a request\'s trace: none while idle, for a probe, or for background work')
  for (const request of requests) {
    const late = otlp.spans.filter((span) => span.traceId === request.traceId && span.name !== 'webhook delivery' && span.startNs >= request.endNs + START_PRECISION_NS)
    t.same(late.map((span) => `${span.name}: ${String(span.attributes['db.query.text'] ?? '')}`), [], `${request.name}: nothing of its trace begins after it ended but its deliveries`)
  }
  const background = otlp.spans.filter((span) => /lease_until|set sequence|max\(sequence\)/i.test(String(span.attributes['db.query.text'] ?? '')))
  t.same(background.map((span) => span.name), [], 'no claim, numbering pass or poll is a span')
}

t.test('an idle service sends nothing, and each request\'s trace holds what it caused (SQLite)', async (t) => {
  const otlp = await startOtlpReceiver(t)
  const server = await startTracedServer(t, otlp, KEY)
  await idleProbesAndRequests(t, otlp, [server])
})

t.test('two instances on PostgreSQL: the same', { skip: await postgresSkipReason() }, async (t) => {
  const otlp = await startOtlpReceiver(t)
  const url = await createPostgresDatabase(t)
  const servers = [await startTracedServer(t, otlp, KEY, { DATABASE_URL: url }), await startTracedServer(t, otlp, KEY, { DATABASE_URL: url })]
  await idleProbesAndRequests(t, otlp, servers)
})
