/**
 * Every change to a pet or an order is an event in the feed (docs/decisions.md#events), on
 * whichever database this run tests: its type, data and previous fields, in commit order
 * with the events of one change together; nothing for a change that changed nothing or was
 * refused; the feed's paging, where every page links to the next; getEvent.
 */
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { AUTH, build, JSON_HEADERS, TEST_DATABASE } from '../../helpers/app.ts'
import { errorBody, JSON_TYPE } from '../../helpers/answers.ts'
import { feedOf, feedWhere, readFeed, summary, type FeedEvent } from '../../helpers/events.ts'
import { addPets, nextLink, rowCount } from '../../helpers/store.ts'

const MERGE_PATCH = { ...AUTH, 'content-type': 'application/merge-patch+json' }

async function send (app: FastifyInstance, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object, headers: Record<string, string> = method === 'PATCH' ? MERGE_PATCH : JSON_HEADERS) {
  const res = await app.inject({ method, url, headers: payload === undefined ? AUTH : headers, payload })
  return res
}

t.test('every change is its events, in the order they committed, the events of one change together', async (t) => {
  const app = await build(t)
  const answers: unknown[] = []
  const keep = async (res: { statusCode: number, json: () => unknown }, status: number) => {
    t.equal(res.statusCode, status)
    answers.push(res.json())
  }
  await keep(await send(app, 'POST', '/v1/pets', { name: 'Rex', categoryId: 1, status: 'available' }), 201)
  await keep(await send(app, 'POST', '/v1/pets', { name: 'Tom', categoryId: 2, status: 'available' }), 201)
  await keep(await send(app, 'PATCH', '/v1/pets/1', { name: 'Rex II' }), 200)
  await keep(await send(app, 'POST', '/v1/store/orders', { petId: 1 }), 201)
  await keep(await send(app, 'PATCH', '/v1/store/orders/1', { shipDate: '2026-12-01T10:00:00Z' }), 200)
  await keep(await send(app, 'PATCH', '/v1/store/orders/1', { complete: true }), 200)
  await keep(await send(app, 'POST', '/v1/store/orders', { petId: 2, quantity: 3 }), 201)
  t.equal((await send(app, 'DELETE', '/v1/store/orders/2')).statusCode, 204)

  const events = await feedOf(app, 12)
  t.same(summary(events), [
    'pet.created 1', 'pet.created 2', 'pet.updated 1',
    'order.placed 1', 'pet.updated 1',
    'order.updated 1',
    'order.updated 1', 'pet.updated 1',
    'order.placed 2', 'pet.updated 2',
    'order.cancelled 2', 'pet.updated 2'
  ])
  const rex = { id: 1, name: 'Rex II', categoryId: 1 }
  const order1 = { id: 1, petId: 1, quantity: 1, shipDate: '2026-12-01T10:00:00Z' }
  const order2 = { id: 2, petId: 2, quantity: 3, complete: false }
  t.same(events.map(({ data, previous }) => previous === undefined ? { data } : { data, previous }), [
    { data: answers[0] },
    { data: answers[1] },
    { data: { ...rex, status: 'available' }, previous: { name: 'Rex' } },
    { data: answers[3] },
    { data: { ...rex, status: 'pending' }, previous: { status: 'available' } },
    { data: { ...order1, complete: false }, previous: { shipDate: null } },
    { data: { ...order1, complete: true }, previous: { complete: false } },
    { data: { ...rex, status: 'sold' }, previous: { status: 'pending' } },
    { data: order2 },
    { data: { id: 2, name: 'Tom', categoryId: 2, status: 'pending' }, previous: { status: 'available' } },
    { data: order2 },
    { data: { id: 2, name: 'Tom', categoryId: 2, status: 'available' }, previous: { status: 'pending' } }
  ], 'data is the resource after the change (a cancelled order as it was), previous exactly the changed fields as they were')
  t.same(answers[4], { ...order1, complete: false }, 'the answers say the same')

  const sequences = events.map((event) => Number(event.sequence))
  t.ok(sequences.every((sequence, i) => i === 0 || sequence > sequences[i - 1]!), `sequence increases: ${sequences.join(' ')}`)
  t.equal(new Set(events.map((event) => event.id)).size, events.length, 'every id differs')
  for (const event of events) {
    t.match(event.id, /^evt_[A-Za-z0-9_-]{22}$/)
    t.match(event.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    t.same(Object.keys(event), ['id', 'type', 'timestamp', 'sequence', 'data', ...event.type.endsWith('.updated') ? ['previous'] : []],
      `${event.type}: the envelope's fields, in the document's order`)
  }
})

t.test('a change that changes nothing, or is refused, makes no event', async (t) => {
  const app = await build(t)
  await addPets(app, 2, { statuses: ['available', 'sold'] })
  t.equal((await send(app, 'POST', '/v1/store/orders', { petId: 1 })).statusCode, 201)
  const before = (await feedWhere(app, (events) => summary(events).includes('pet.updated 1'), 'the order\'s events')).length

  const refused: Array<[string, Awaited<ReturnType<typeof send>>, number]> = [
    ['an empty patch', await send(app, 'PATCH', '/v1/pets/2', {}), 200],
    ['the same values again', await send(app, 'PATCH', '/v1/pets/2', { status: 'sold' }), 200],
    ['the same ship date again', await send(app, 'PATCH', '/v1/store/orders/1', {}), 200],
    ['a status an open order holds', await send(app, 'PATCH', '/v1/pets/1', { status: 'sold' }), 409],
    ['an order for a pet already sold', await send(app, 'POST', '/v1/store/orders', { petId: 2 }), 409],
    ['an invalid body', await send(app, 'POST', '/v1/pets', { name: '' }), 400],
    ['a failed If-Match', await send(app, 'PATCH', '/v1/pets/2', { name: 'Max' }, { ...MERGE_PATCH, 'if-match': '"stale"' }), 412],
    ['a missing order', await send(app, 'DELETE', '/v1/store/orders/99'), 404]
  ]
  for (const [what, res, status] of refused) t.equal(res.statusCode, status, what)

  const keyed = { ...JSON_HEADERS, 'idempotency-key': 'feed-test-create' }
  t.equal((await send(app, 'POST', '/v1/pets', { name: 'Once', categoryId: 1 }, keyed)).statusCode, 201)
  const replay = await send(app, 'POST', '/v1/pets', { name: 'Once', categoryId: 1 }, keyed)
  t.equal(replay.headers['idempotent-replayed'], 'true')

  const events = await feedOf(app, before + 1)
  t.same(summary(events.slice(before)), ['pet.created 3'], 'only the first of the idempotent creates, and nothing else')
})

t.test('every page links to the next, the last and an empty one included; type keeps one type', async (t) => {
  const app = await build(t)
  for (const name of ['A', 'B', 'C']) await send(app, 'POST', '/v1/pets', { name, categoryId: 1 })
  await send(app, 'PATCH', '/v1/pets/2', { name: 'B2' })
  await feedOf(app, 4)

  const first = await app.inject({ url: '/v1/events?limit=2', headers: AUTH })
  t.equal(first.statusCode, 200)
  t.equal(first.headers['content-type'], JSON_TYPE)
  t.equal(first.headers['api-stability'], 'experimental')
  t.same(summary(first.json()), ['pet.created 1', 'pet.created 2'])
  const second = await app.inject({ url: nextLink(first.headers.link as string)!, headers: AUTH })
  t.same(summary(second.json()), ['pet.created 3', 'pet.updated 2'])
  const third = await app.inject({ url: nextLink(second.headers.link as string)!, headers: AUTH })
  t.equal(third.body, '[]', 'past the last event: an empty page')
  t.equal(third.headers.link, second.headers.link, 'which links to itself, to poll on from')

  await send(app, 'POST', '/v1/pets', { name: 'D', categoryId: 1 })
  await feedOf(app, 5)
  const later = await readFeed(app, nextLink(third.headers.link as string))
  t.same(summary(later.events), ['pet.created 4'], 'polling on from the empty page finds what came since, once')

  const empty = await app.inject({ url: '/v1/events?type=order.placed', headers: AUTH })
  t.equal(empty.body, '[]')
  t.equal(empty.headers.link, '</v1/events?limit=20&type=order.placed&wait=0>; rel="next"', 'an empty feed links to the same request, without a cursor')

  const updates = await readFeed(app, '/v1/events?type=pet.updated&limit=1')
  t.same(summary(updates.events), ['pet.updated 2'])
  t.match(updates.next, /[?&]type=pet\.updated(&|$)/, 'the filter is kept in every Link')
})

t.test('bad parameters are a 400 with the Error body, and an unknown event a 404', async (t) => {
  const app = await build(t)
  const cases: Array<[string, number, string]> = [
    ['/v1/events?type=pet.deleted', 400, 'querystring/type must be one of: pet.created, pet.updated, category.created, category.updated, category.deleted, order.placed, order.updated, order.cancelled'],
    ['/v1/events?wait=31', 400, 'querystring/wait must be <= 30'],
    ['/v1/events?wait=-1', 400, 'querystring/wait must be >= 0'],
    ['/v1/events?cursor=bm90LWEtbnVtYmVy', 400, 'querystring/cursor is malformed: pass back the cursor of a Link header unchanged'],
    ['/v1/events?limit=0', 400, 'querystring/limit must be >= 1'],
    ['/v1/events/evt_AAAAAAAAAAAAAAAAAAAAAA', 404, 'Event evt_AAAAAAAAAAAAAAAAAAAAAA not found'],
    ['/v1/events/42', 400, 'params/eventId must match pattern "^evt_[A-Za-z0-9_-]{22}$"']
  ]
  for (const [url, status, message] of cases) {
    const res = await app.inject({ url, headers: AUTH })
    t.equal(res.statusCode, status, url)
    t.same(res.json(), errorBody(status === 404 ? 'not_found' : 'invalid_request', message, status), url)
    t.equal(res.headers['cache-control'], 'no-store', url)
  }
})

t.test('getEvent answers the event as the feed lists it, with an ETag', async (t) => {
  const app = await build(t)
  await send(app, 'POST', '/v1/pets', { name: 'Rex', categoryId: 1 })
  const [listed] = await feedOf(app, 1) as [FeedEvent]
  const page = await app.inject({ url: '/v1/events', headers: AUTH })
  const res = await app.inject({ url: `/v1/events/${listed.id}`, headers: AUTH })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['api-stability'], 'experimental')
  t.equal(`[${res.body}]`, page.body, 'the same bytes as in the feed')
  const etag = res.headers.etag as string
  t.match(etag, /^"[A-Za-z0-9_-]+"$/)
  const again = await app.inject({ url: `/v1/events/${listed.id}`, headers: { ...AUTH, 'if-none-match': etag } })
  t.equal(again.statusCode, 304)
  t.equal(again.body, '')
})

t.test('an int64 beyond 2^53 is carried digit for digit', async (t) => {
  const app = await build(t)
  const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: '{"name":"Big","categoryId":9223372036854775807}' })
  t.equal(res.statusCode, 201)
  const patched = await app.inject({ method: 'PATCH', url: '/v1/pets/1', headers: MERGE_PATCH, payload: '{"categoryId":9223372036854775806}' })
  t.equal(patched.statusCode, 200)
  await feedOf(app, 2)
  const both = await app.inject({ url: '/v1/events', headers: AUTH })
  t.match(both.body, '"data":{"id":1,"name":"Big","categoryId":9223372036854775807}')
  t.match(both.body, '"data":{"id":1,"name":"Big","categoryId":9223372036854775806},"previous":{"categoryId":9223372036854775807}}', 'in previous too')
})

t.test("a created pet's event holds the pet as getPet answers it, whatever its name", async (t) => {
  const app = await build(t)
  // As JSON text: escapes, characters beyond the BMP, quotes and backslashes, markup.
  const names = [String.raw`Rex`, String.raw`l\u00e9o \ud83d\udc36`, 'Léo 🐶', String.raw`quote \" and \\`, '</script><b>&amp;', String.raw`\u0052ex`]
  for (const name of names) {
    const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: `{"name":"${name}","categoryId":1}` })
    t.equal(res.statusCode, 201, name)
  }
  const events = await feedOf(app, names.length)
  for (const [i, event] of events.entries()) {
    const got = await app.inject({ url: `/v1/pets/${i + 1}`, headers: AUTH })
    t.same(event.data, got.json(), `pet ${i + 1}: ${got.body}`)
  }
  t.same(events.map((event) => (event.data as { name: string }).name), ['Rex', 'léo 🐶', 'Léo 🐶', 'quote " and \\', '</script><b>&amp;', 'Rex'])
})

t.test('a change whose events cannot be written is not made: one transaction', async (t) => {
  const app = await build(t)
  // Every insert into events fails from here on, as a full disk or a lost connection would.
  if (TEST_DATABASE === 'postgres') await sql`alter table events add constraint zz_fixture_refuse check (false) not valid`.execute(app.db)
  else await sql`create trigger zz_fixture_refuse before insert on events begin select raise(abort, 'zz fixture refuses'); end`.execute(app.db)
  const created = await send(app, 'POST', '/v1/pets', { name: 'Rex', categoryId: 1, status: 'available' })
  t.equal(created.statusCode, 500)
  t.equal(await rowCount(app, 'pets'), 0, 'no pet without its event')
  // A pet put in straight, as the API can no longer add one.
  await app.db.insertInto('pets').values({ name: 'Tom', category_id: 1, status: 'available' }).execute()
  const petId = Number((await app.db.selectFrom('pets').select('id').executeTakeFirstOrThrow()).id)
  t.equal((await send(app, 'POST', '/v1/store/orders', { petId })).statusCode, 500)
  t.equal(await rowCount(app, 'orders'), 0, 'no order without its events')
  t.equal((await app.inject({ url: `/v1/pets/${petId}`, headers: AUTH })).json().status, 'available', 'and its pet as it was')
})
