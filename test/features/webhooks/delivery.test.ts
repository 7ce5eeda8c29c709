/**
 * Deliveries (docs/decisions.md#delivery), on whichever database this run tests, to receivers on
 * 127.0.0.1 (let through by WEBHOOK_ALLOWED_NETWORKS): every event an endpoint selects,
 * signed so that the reference library `standardwebhooks` verifies it, the body the feed's;
 * retried on failure with the same `webhook-id`, every attempt in the log; a 410, a
 * `Retry-After`, a redirect; the address checked again at each attempt; a hanging receiver
 * that holds only its own share; rotation, disabling, recovery and removal; retention.
 */
import { sql } from 'kysely'
import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { Webhook } from 'standardwebhooks'
import { AUTH, build, JSON_HEADERS, TEST_DATABASE, testDatabaseUrl } from '../../helpers/app.ts'
import { feedOf } from '../../helpers/events.ts'
import { captureLog } from '../../helpers/log.ts'
import { startReceiver, type Receiver } from '../../helpers/receiver.ts'
import { until } from '../../helpers/until.ts'
import { systemLookup, type Lookup } from '../../../src/features/webhooks/addresses.ts'
import { parseNetworks } from '../../../src/config/values.ts'
import type { AppOptions } from '../../../src/app.ts'
import { deleteExpiredEvents } from '../../../src/features/events/retention.ts'

const LOCAL = parseNetworks('127.0.0.0/8')
const MERGE_PATCH = { ...AUTH, 'content-type': 'application/merge-patch+json' }

type Webhooks = NonNullable<AppOptions['webhooks']>

async function service (t: Test, webhooks: Partial<Webhooks> = {}, options: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  return build(t, { ...options, webhooks: { allowedNetworks: LOCAL, retryDelaysMs: [20, 20, 20], pollIntervalMs: 20, ...webhooks } })
}

async function subscribe (app: FastifyInstance, url: string, events: string[] = ['*']): Promise<{ id: number, secret: string }> {
  const res = await app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: JSON_HEADERS, payload: { url, events } })
  if (res.statusCode !== 201) throw new Error(`could not add the endpoint: ${res.body}`)
  return res.json()
}

async function addPet (app: FastifyInstance, name = 'Rex') {
  const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name, categoryId: 1, status: 'available' } })
  if (res.statusCode !== 201) throw new Error(res.body)
  return res.json()
}

async function deliveries (app: FastifyInstance, endpointId: number) {
  const res = await app.inject({ url: `/v1/webhook-endpoints/${endpointId}/deliveries?limit=100`, headers: AUTH })
  return res.json() as Array<Record<string, any>>
}

/** The events a receiver got, each verified with the reference library. */
function verified (t: Test, receiver: Receiver, secret: string) {
  return receiver.received.map(({ headers, body }) => {
    t.equal(headers['content-type'], 'application/json')
    return new Webhook(secret).verify(body, headers as Record<string, string>) as Record<string, any>
  })
}

t.test('every event an endpoint selects is delivered, signed, the body the feed\'s own', async (t) => {
  const app = await service(t)
  const all = await startReceiver(t)
  const orders = await startReceiver(t)
  const everything = await subscribe(app, all.url)
  const orderEvents = await subscribe(app, orders.url, ['order.*'])
  const pet = await addPet(app)
  await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: pet.id } })
  await app.inject({ method: 'PATCH', url: `/v1/pets/${pet.id}`, headers: MERGE_PATCH, payload: { name: 'Rex II' } })
  const feed = await feedOf(app, 4)
  await until(() => all.received.length >= 4 && orders.received.length >= 1, 'the deliveries')

  const byId = (events: Array<Record<string, any>>) => [...events].sort((a, b) => a.id < b.id ? -1 : 1)
  t.same(byId(verified(t, all, everything.secret)), byId(feed), 'every event, as the feed has it')
  t.same(verified(t, orders, orderEvents.secret), feed.filter((event) => event.type === 'order.placed'), 'order.* selects the order events only')
  for (const { headers, body } of all.received) {
    t.equal(headers['webhook-id'], JSON.parse(body).id, 'webhook-id is the event id')
    t.ok(Math.abs(Number(headers['webhook-timestamp']) - Date.now() / 1000) < 60, 'webhook-timestamp is the time of the attempt')
    t.match(headers['webhook-signature'], /^v1,[A-Za-z0-9+/]{43}=$/, 'one signature')
  }
  const feedText = (await app.inject({ url: '/v1/events?limit=100', headers: AUTH })).body
  for (const { body } of all.received) t.ok(feedText.includes(body), 'the body is the feed\'s text of the event, byte for byte')

  await until(async () => (await deliveries(app, everything.id)).every((delivery) => delivery.outcome === 'succeeded'), 'the log')
  const log = await deliveries(app, everything.id)
  t.equal(log.length, 4)
  t.same(log.map((delivery) => delivery.id), [...log.map((delivery) => delivery.id)].sort((a, b) => b - a), 'newest first')
  for (const delivery of log) {
    t.same(Object.keys(delivery), ['id', 'eventId', 'attempt', 'outcome', 'responseStatus', 'durationMs', 'attemptedAt'])
    t.match(delivery, { attempt: 1, outcome: 'succeeded', responseStatus: 204 })
  }
})

t.test('deliveries to an endpoint share a few kept connections', async (t) => {
  const app = await service(t, { endpointConcurrency: 2 })
  const receiver = await startReceiver(t)
  await subscribe(app, receiver.url)
  for (let i = 0; i < 12; i++) await addPet(app, `Pet ${i}`)
  await until(() => receiver.received.length === 12, 'the deliveries')
  const connections = new Set(receiver.received.map(({ port }) => port)).size
  t.ok(connections <= 2, `12 deliveries on ${connections} connections, at most the endpoint's 2 places`)
})

t.test('while requests keep the service busy, deliveries go at a slower pace, and still go', async (t) => {
  let busy = true
  // No poll: every claim here follows a write this test makes.
  const app = await service(t, { busy: () => busy, busyClaimGapMs: 300, pollIntervalMs: 60_000 })
  const receiver = await startReceiver(t)
  await subscribe(app, receiver.url)
  await app.webhooks.settled()
  const created = performance.now()
  await addPet(app)
  await until(() => receiver.received.length === 1, 'the delivery, while busy')
  t.ok(performance.now() - created >= 300, 'its claim waited the busy gap')

  busy = false
  await addPet(app, 'Fido')
  await until(() => receiver.received.length === 2, 'the delivery, once the requests let it')
})

t.test('PostgreSQL: the claims and successes commit without waiting for the disk, and leave the connection as it was', { skip: TEST_DATABASE !== 'postgres' && 'PostgreSQL only' }, async (t) => {
  // One connection: the one the claims and the successes ran on, and the one asked here.
  const app = await service(t, {}, { database: { url: await testDatabaseUrl(t), poolSize: 1 } })
  const receiver = await startReceiver(t)
  const endpoint = await subscribe(app, receiver.url)
  for (let i = 0; i < 3; i++) await addPet(app, `Pet ${i}`)
  await until(async () => (await deliveries(app, endpoint.id)).filter((delivery) => delivery.outcome === 'succeeded').length === 3, 'the deliveries recorded')
  const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(app.db)
  t.same(rows, [{ synchronous_commit: 'on' }], 'set for their own transactions alone: every write the API acknowledges still waits for its flush')
})

t.test('PostgreSQL: successes are recorded by their key, whatever plan the statement keeps, never by reading every pending delivery', { skip: TEST_DATABASE !== 'postgres' && 'PostgreSQL only' }, async (t) => {
  // One connection, whose prepared statements keep the plan made for any values (as
  // PostgreSQL does after a few runs), made here while the table holds two rows.
  const app = await service(t, {}, { database: { url: await testDatabaseUrl(t), poolSize: 1 } })
  await sql`set plan_cache_mode = force_generic_plan`.execute(app.db)
  const receiver = await startReceiver(t)
  const endpoint = await subscribe(app, receiver.url)
  for (let i = 0; i < 2; i++) await addPet(app, `Pet ${i}`)
  await until(async () => (await deliveries(app, endpoint.id)).filter((delivery) => delivery.outcome === 'succeeded').length === 2, 'the deliveries recorded')
  const { rows: [statement] } = await sql<{ name: string }>`select name from pg_prepared_statements where statement like ${"%set outcome = 'succeeded'%"}`.execute(app.db)
  t.ok(statement, 'the record of successes is a prepared statement')

  // Then a backlog: 1000 deliveries pending, due long after the test ends.
  await sql`insert into webhook_deliveries (endpoint_id, event_id, attempt, first_attempt, outcome, next_attempt_at)
    select ${endpoint.id}, (select min(id) from events), 1, 1, 'pending', '9999-01-01T00:00:00.000Z' from generate_series(1, 1000)`.execute(app.db)
  const { rows: [plan] } = await sql<{ 'QUERY PLAN': unknown }>`explain (format json)
    execute ${sql.raw(statement!.name)}('{1,2}', '{204,204}', '{1,1}', '{"2026-11-28T00:00:00.000Z","2026-11-28T00:00:00.000Z"}')`.execute(app.db)
  const text = JSON.stringify(plan!['QUERY PLAN'])
  const indexes = [...text.matchAll(/"Index Name":"(\w+)"/g)].map((match) => match[1]!)
  t.ok(indexes.includes('webhook_deliveries_pkey'), `each delivery looked up by its key: ${indexes.join(', ')}`)
  t.notOk(indexes.some((index) => index.endsWith('_due')), 'not through an index of every pending delivery')
  t.notOk(text.includes('"Seq Scan"'), 'nor by reading the whole table')
})

t.test('a failed delivery is tried again, with the same webhook-id, each attempt in the log', async (t) => {
  const app = await service(t)
  // Two failures, then a success, whatever the pace of the retries.
  const receiver = await startReceiver(t, (count) => ({ status: count <= 2 ? 500 : 200 }))
  const endpoint = await subscribe(app, receiver.url)
  await addPet(app)
  await until(async () => (await deliveries(app, endpoint.id))[0]?.outcome === 'succeeded', 'the success')
  const log = await deliveries(app, endpoint.id)
  t.same(log.map(({ attempt, outcome, error, responseStatus }) => ({ attempt, outcome, error, responseStatus })), [
    { attempt: 3, outcome: 'succeeded', error: undefined, responseStatus: 200 },
    { attempt: 2, outcome: 'failed', error: 'http_status', responseStatus: 500 },
    { attempt: 1, outcome: 'failed', error: 'http_status', responseStatus: 500 }
  ])
  t.ok(log.slice(1).every((delivery) => Date.parse(delivery.nextAttemptAt) >= Date.parse(delivery.attemptedAt) + 20), 'a failure says when the next attempt is due')
  t.equal(new Set(receiver.received.map(({ headers }) => headers['webhook-id'])).size, 1, 'the same webhook-id on every attempt')
  t.equal(new Set(log.map((delivery) => delivery.eventId)).size, 1)
})

t.test('after the last retry the delivery has failed; recover sends it again, once', async (t) => {
  const app = await service(t, { retryDelaysMs: [10] })
  const receiver = await startReceiver(t, { status: 503 })
  const endpoint = await subscribe(app, receiver.url)
  const since = new Date().toISOString()
  await addPet(app)
  await until(async () => (await deliveries(app, endpoint.id)).length === 2 && (await deliveries(app, endpoint.id))[0]!.outcome === 'failed', 'two attempts')
  const [last] = await deliveries(app, endpoint.id)
  t.notOk('nextAttemptAt' in last!, 'no attempt after the last')
  t.equal(receiver.received.length, 2, 'N delays give N + 1 attempts')
  receiver.answer = { status: 204 }
  const recovered = await app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/recover`, headers: JSON_HEADERS, payload: { since } })
  t.equal(recovered.statusCode, 202)
  t.same(recovered.json(), { scheduled: 1 })
  await until(() => receiver.received.length === 3, 'the recovered delivery')
  await until(async () => (await deliveries(app, endpoint.id))[0]!.outcome === 'succeeded', 'its success')
  t.match((await deliveries(app, endpoint.id))[0], { attempt: 3, outcome: 'succeeded' })
  const again = await app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/recover`, headers: JSON_HEADERS, payload: { since } })
  t.same(again.json(), { scheduled: 0 }, 'what succeeded is not sent again')
})

t.test('a 410 disables the endpoint; a redirect is a failure, not followed', async (t) => {
  const app = await service(t)
  const gone = await startReceiver(t, { status: 410 })
  const moved = await startReceiver(t, { status: 302, headers: { location: 'http://127.0.0.1:9/elsewhere' } })
  const goneEndpoint = await subscribe(app, gone.url)
  const movedEndpoint = await subscribe(app, moved.url)
  await addPet(app)
  await until(async () => (await deliveries(app, goneEndpoint.id))[0]?.outcome === 'failed', 'the 410')
  t.same((await app.inject({ url: `/v1/webhook-endpoints/${goneEndpoint.id}`, headers: AUTH })).json().enabled, false, 'disabled')
  t.match(await deliveries(app, goneEndpoint.id), [{ attempt: 1, outcome: 'failed', error: 'http_status', responseStatus: 410 }])
  await until(async () => (await deliveries(app, movedEndpoint.id)).length >= 2, 'the redirect tried again')
  t.match((await deliveries(app, movedEndpoint.id)).at(-1), { attempt: 1, outcome: 'failed', error: 'redirect', responseStatus: 302 })
  await addPet(app, 'Tom')
  await until(async () => (await deliveries(app, movedEndpoint.id)).filter((delivery) => delivery.attempt === 1).length === 2, 'the next event')
  t.equal(gone.received.length, 1, 'a disabled endpoint receives nothing more')
})

t.test('Retry-After on a 429 is honoured', async (t) => {
  // Up to the longest delay: here 5 minutes.
  const app = await service(t, { retryDelaysMs: [20, 300_000] })
  const receiver = await startReceiver(t, { status: 429, headers: { 'retry-after': '120' } })
  const endpoint = await subscribe(app, receiver.url)
  await addPet(app)
  await until(async () => (await deliveries(app, endpoint.id)).length === 2, 'the next attempt scheduled')
  const [next, first] = await deliveries(app, endpoint.id)
  t.match(first, { attempt: 1, outcome: 'failed', responseStatus: 429 })
  t.ok(Date.parse(first!.nextAttemptAt) - Date.parse(first!.attemptedAt) >= 120_000, `not before 120 s: ${first!.nextAttemptAt}`)
  t.same(next, { id: next!.id, eventId: first!.eventId, attempt: 2, outcome: 'pending', nextAttemptAt: first!.nextAttemptAt })
})

t.test('an absurd Retry-After waits the longest delay: every attempt recorded, then the delivery has failed', async (t) => {
  const app = await service(t, { retryDelaysMs: [20, 40] })
  const receiver = await startReceiver(t, { status: 429, headers: { 'retry-after': '9999999999999' } })
  const endpoint = await subscribe(app, receiver.url)
  await addPet(app)
  await until(async () => (await deliveries(app, endpoint.id)).filter((delivery) => delivery.outcome === 'failed').length === 3, 'three attempts, each recorded')
  const [third, second, first] = await deliveries(app, endpoint.id)
  for (const [delivery, attempt] of [[first, 1], [second, 2], [third, 3]] as const) t.match(delivery, { attempt, outcome: 'failed', responseStatus: 429, error: 'http_status' })
  const waited = (delivery: Record<string, any>) => Date.parse(delivery.nextAttemptAt) - Date.parse(delivery.attemptedAt)
  t.ok(waited(first!) >= 40 && waited(first!) < 1000, `the longest delay, not the receiver's: ${waited(first!)} ms`)
  t.equal(third!.nextAttemptAt, undefined, 'the last attempt: none after it')
  t.equal(receiver.received.length, 3)
})

t.test('the address is checked again at each attempt: a name that now points inside gets nothing', async (t) => {
  let resolveTo = '127.0.0.1'
  const lookup: Lookup = async (host) => host === 'hooks.test' ? [resolveTo] : systemLookup(host)
  const app = await service(t, { lookup })
  const receiver = await startReceiver(t)
  const endpoint = await subscribe(app, receiver.url.replace('127.0.0.1', 'hooks.test'))
  await addPet(app)
  await until(() => receiver.received.length === 1, 'the first delivery')
  resolveTo = '10.0.0.1'
  await addPet(app, 'Tom')
  await until(async () => (await deliveries(app, endpoint.id)).some((delivery) => delivery.error === 'address_not_allowed'), 'the refusal')
  t.equal(receiver.received.length, 1, 'nothing sent')
})

t.test('a hanging endpoint holds its own share only: another is served, and so is the API', async (t) => {
  const app = await service(t, { endpointConcurrency: 2, concurrency: 4, timeoutMs: 30_000 })
  const hanging = await startReceiver(t, 'hang')
  const fast = await startReceiver(t)
  await subscribe(app, hanging.url)
  await subscribe(app, fast.url)
  for (let i = 0; i < 10; i++) await addPet(app, `Pet ${i}`)
  await until(() => fast.received.length === 10, 'every delivery to the fast endpoint')
  t.equal(hanging.hanging, 2, 'the hanging one holds two attempts, its share')
  const started = Date.now()
  t.equal((await app.inject({ url: '/v1/pets?limit=1', headers: AUTH })).statusCode, 200, 'the API answers')
  t.ok(Date.now() - started < 5000)
})

t.test('endpoints that never answer hold their own places only: one that answers gets every event while they hang', async (t) => {
  // The defaults' places (64 in all, 16 at most per endpoint), and attempts that outlast the test.
  const app = await service(t, { timeoutMs: 30_000 })
  const hanging = await Promise.all(Array.from({ length: 4 }, async () => startReceiver(t, 'hang')))
  const fast = await startReceiver(t)
  for (const receiver of hanging) await subscribe(app, receiver.url)
  await subscribe(app, fast.url)
  for (let i = 0; i < 20; i++) await addPet(app, `Pet ${i}`)
  await until(() => fast.received.length === 20, 'every delivery to the endpoint that answers')
  // Five endpoints share 64 places: 12 each, of which the hanging ones hold all theirs.
  await until(() => hanging.every((receiver) => receiver.hanging === 12), 'each hanging endpoint holding its 12 places')
  t.same(hanging.map((receiver) => receiver.received.length), [12, 12, 12, 12], 'none more')
})

t.test('endpoints on one host keep connections of their own: one hanging there holds none of another\'s', async (t) => {
  const app = await service(t, { endpointConcurrency: 2, timeoutMs: 30_000 })
  const host = await startReceiver(t, (_count, path) => path === '/hang' ? 'hang' : { status: 204 })
  const origin = new URL(host.url).origin
  await subscribe(app, `${origin}/hang`)
  await subscribe(app, `${origin}/ok`)
  for (let i = 0; i < 6; i++) await addPet(app, `Pet ${i}`)
  const answered = () => host.received.length - host.hanging
  await until(() => host.hanging === 2 && answered() === 6, 'every delivery to /ok, while /hang holds its two')
  t.pass('the same host, served apart')
})

t.test('during a rotation\'s grace each delivery carries both signatures', async (t) => {
  const app = await service(t)
  const receiver = await startReceiver(t)
  const endpoint = await subscribe(app, receiver.url)
  const rotated = (await app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, headers: JSON_HEADERS, payload: { graceSeconds: 3600 } })).json()
  await addPet(app)
  await until(() => receiver.received.length === 1, 'the delivery')
  const [{ headers, body }] = receiver.received as [typeof receiver.received[0]]
  t.equal(String(headers['webhook-signature']).split(' ').length, 2)
  for (const secret of [endpoint.secret, rotated.secret]) t.doesNotThrow(() => new Webhook(secret).verify(body, headers as Record<string, string>))
  await app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, headers: JSON_HEADERS, payload: { graceSeconds: 0 } })
  await addPet(app, 'Tom')
  await until(() => receiver.received.length === 2, 'the next delivery')
  t.equal(String(receiver.received[1]!.headers['webhook-signature']).split(' ').length, 1, 'no grace, one signature')
})

t.test('a disabled endpoint misses events; enabling it sends only new ones; recover sends what it missed', async (t) => {
  const app = await service(t)
  const receiver = await startReceiver(t)
  await addPet(app, 'Before')
  const endpoint = await subscribe(app, receiver.url, ['pet.created'])
  const since = new Date(Date.now() - 60_000).toISOString()
  await app.inject({ method: 'PATCH', url: `/v1/webhook-endpoints/${endpoint.id}`, headers: MERGE_PATCH, payload: { enabled: false } })
  await addPet(app, 'Missed')
  await app.inject({ method: 'PATCH', url: `/v1/webhook-endpoints/${endpoint.id}`, headers: MERGE_PATCH, payload: { enabled: true } })
  await addPet(app, 'After')
  await until(() => receiver.received.length === 1, 'the new event')
  t.same(receiver.received.map(({ body }) => JSON.parse(body).data.name), ['After'])
  const recovered = await app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/recover`, headers: JSON_HEADERS, payload: { since } })
  t.same(recovered.json(), { scheduled: 1 }, 'only the event missed while disabled: not one from before the endpoint, nor one it received')
  await until(() => receiver.received.length === 2, 'the missed event')
  t.same(receiver.received.map(({ body }) => JSON.parse(body).data.name), ['After', 'Missed'])
})

t.test('recover reads a leap second (23:59:60) as the second after it', async (t) => {
  const app = await service(t)
  const receiver = await startReceiver(t)
  await addPet(app, 'Just before')
  await addPet(app, 'Just after')
  const [before, after] = await feedOf(app, 2)
  const endpoint = await subscribe(app, receiver.url, ['pet.created'])
  // The events a millisecond either side of 2026-07-01T00:00:00Z, the endpoint older than both.
  await app.db.updateTable('webhook_endpoints').set({ created_at: '2026-06-01T00:00:00.000Z' }).execute()
  await app.db.updateTable('events').set({ occurred_at: '2026-06-30T23:59:59.999Z' }).where('id', '=', before!.id).execute()
  await app.db.updateTable('events').set({ occurred_at: '2026-07-01T00:00:00.000Z' }).where('id', '=', after!.id).execute()
  const recover = (since: string) => app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/recover`, headers: JSON_HEADERS, payload: { since } })
  const recovered = await recover('2026-06-30T23:59:60Z')
  t.equal(recovered.statusCode, 202)
  t.equal(recovered.headers['content-type'], 'application/json; charset=utf-8')
  t.same(recovered.json(), { scheduled: 1 })
  await until(() => receiver.received.length === 1, 'the recovered delivery')
  t.same(receiver.received.map(({ body }) => JSON.parse(body).id), [after!.id], 'the event of the next second, not the one before it')
  const past = await recover('9999-12-31T23:59:60Z')
  t.same([past.statusCode, past.json()], [202, { scheduled: 0 }], 'the second after it is in the year 10000, after every event')
})

t.test('disabling ends pending deliveries; removing an endpoint removes them', async (t) => {
  const app = await service(t, { retryDelaysMs: [3_600_000] })
  const receiver = await startReceiver(t, { status: 500 })
  const endpoint = await subscribe(app, receiver.url)
  await addPet(app)
  await until(async () => (await deliveries(app, endpoint.id)).length === 2, 'a retry pending')
  await app.inject({ method: 'PATCH', url: `/v1/webhook-endpoints/${endpoint.id}`, headers: MERGE_PATCH, payload: { enabled: false } })
  t.match((await deliveries(app, endpoint.id))[0], { attempt: 2, outcome: 'failed', error: 'endpoint_disabled' })
  t.equal((await app.inject({ method: 'DELETE', url: `/v1/webhook-endpoints/${endpoint.id}`, headers: AUTH })).statusCode, 204)
  t.same(await app.db.selectFrom('webhook_deliveries').selectAll().execute(), [], 'its deliveries went with it')
})

t.test('an endpoint whose every delivery failed for long enough is disabled', async (t) => {
  const app = await service(t, { retryDelaysMs: [50, 50, 50, 50, 50, 50, 50, 50], disableAfterMs: 150 })
  const receiver = await startReceiver(t, { status: 500 })
  const endpoint = await subscribe(app, receiver.url)
  await addPet(app)
  await until(async () => !(await app.inject({ url: `/v1/webhook-endpoints/${endpoint.id}`, headers: AUTH })).json().enabled, 'disabled')
  const log = await deliveries(app, endpoint.id)
  t.ok(log.every((delivery) => delivery.outcome === 'failed'), 'nothing pending after')
  t.ok(Date.parse(log[0]!.attemptedAt) - Date.parse(log.at(-1)!.attemptedAt) >= 150, 'after failing that long')
})

t.test('each failed attempt is logged, without the secret or the body; the metrics count them', async (t) => {
  const log = captureLog()
  const app = await service(t, { retryDelaysMs: [3_600_000] }, { logger: { level: 'info', stream: log.stream }, metrics: true })
  const receiver = await startReceiver(t, { status: 500 })
  const endpoint = await subscribe(app, receiver.url)
  await addPet(app, 'Secretive')
  await until(() => log.lines.some((line) => line.msg === 'webhook delivery failed'), 'the log line')
  const line = log.lines.find((line) => line.msg === 'webhook delivery failed')!
  t.match(line, { level: 40, webhookEndpointId: String(endpoint.id), attempt: 1, error: 'http_status', responseStatus: 500 })
  t.ok(line.nextAttemptIn >= 3_600_000)
  t.notOk(log.text().includes(endpoint.secret.slice('whsec_'.length)), 'no secret')
  t.notOk(log.text().includes('Secretive'), 'no body')
  const metrics = await app.prometheus!.registry.metrics()
  t.match(metrics, /webhook_deliveries_total\{outcome="failed"\} 1/)
  t.match(metrics, /webhook_delivery_seconds_count 1/)
  t.match(metrics, /webhook_backlog 1/, 'the retry pending')
  t.match(metrics, /webhook_oldest_pending_seconds 0/, 'not due yet')
})

t.test('an event that expires takes its deliveries with it', async (t) => {
  const app = await service(t)
  const receiver = await startReceiver(t)
  const endpoint = await subscribe(app, receiver.url)
  await addPet(app)
  await until(async () => (await deliveries(app, endpoint.id))[0]?.outcome === 'succeeded', 'the delivery')
  t.equal(await deleteExpiredEvents(app.db, new Date(Date.now() + 60_000)), 1)
  t.same(await deliveries(app, endpoint.id), [], 'its log is empty')
})
