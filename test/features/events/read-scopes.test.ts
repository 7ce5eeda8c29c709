/**
 * An event is read under its resource's scope too, on whichever database this run tests:
 * the feed shows a key only the types it may read, and a webhook endpoint reaching a
 * resource needs that resource's read scope to be made, pointed elsewhere, turned on or
 * recovered. Otherwise events and webhooks would show a key what getPet or getOrder refuse.
 */
import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { createApiKey, type NewKey } from '../../../src/features/api-keys/repository.ts'
import { parseNetworks } from '../../../src/config/values.ts'
import { build, JSON_HEADERS } from '../../helpers/app.ts'
import { errorBody, JSON_TYPE } from '../../helpers/answers.ts'
import { rowCount } from '../../helpers/store.ts'

async function keyWith (app: FastifyInstance, key: NewKey): Promise<Record<string, string>> {
  const { key: secret } = await createApiKey(app.db, key)
  await app.apiKeys.sync(app)
  return { authorization: `Bearer ${secret}` }
}

const forbidden = (scope: string, message: string) => ({
  status: 403,
  body: errorBody('insufficient_scope', message, 403),
  challenge: `Bearer realm="petstore", error="insufficient_scope", scope="${scope}"`
})

async function assertForbidden (t: Test, res: Awaited<ReturnType<FastifyInstance['inject']>>, expected: ReturnType<typeof forbidden>, what: string) {
  t.equal(res.statusCode, expected.status, what)
  t.equal(res.headers['content-type'], JSON_TYPE)
  t.equal(res.headers['cache-control'], 'no-store')
  t.equal(res.headers['www-authenticate'], expected.challenge)
  t.same(res.json(), expected.body, what)
}

/** A pet and an order for it: events of both resources in the feed. */
async function petAndOrder (app: FastifyInstance) {
  const pet = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1, status: 'available' } })
  const order = await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: pet.json().id } })
  t.equal(order.statusCode, 201)
  await app.events.settled()
}

t.test('the feed shows a key only the event types whose resource it may read', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  await petAndOrder(app)
  const all = (await app.inject({ url: '/v1/events', headers: JSON_HEADERS })).json()
  t.same(all.map((event: { type: string }) => event.type), ['pet.created', 'order.placed', 'pet.updated'])

  const ordersOnly = await keyWith(app, { name: 'orders', scopes: ['events:read', 'orders:read'] })
  // Asked twice: the second may be the response cache's, which must not hand this key the full page.
  for (let i = 0; i < 2; i++) {
    const page = await app.inject({ url: '/v1/events', headers: ordersOnly })
    t.equal(page.statusCode, 200)
    t.same(page.json(), [all[1]], 'the order event alone')
    t.equal(page.headers.link, `</v1/events?limit=20&wait=0&cursor=${Buffer.from(String(all[1].sequence)).toString('base64url')}>; rel="next"`, 'the next page after the last event it read')
  }
  const petsOnly = await keyWith(app, { name: 'pets', scopes: ['events:read', 'pets:write'] })
  t.same((await app.inject({ url: '/v1/events', headers: petsOnly })).json(), [all[0], all[2]], 'pets:write includes pets:read')
  t.same((await app.inject({ url: '/v1/events?limit=1', headers: petsOnly })).json(), [all[0]], 'a page of the types it may read')
  const neither = await keyWith(app, { name: 'neither', scopes: ['events:read'] })
  t.same((await app.inject({ url: '/v1/events', headers: neither })).json(), [])
  t.same((await app.inject({ url: '/v1/events', headers: JSON_HEADERS })).json(), all, 'a key with every scope still reads every event')

  await assertForbidden(t, await app.inject({ url: '/v1/events?type=pet.created', headers: ordersOnly }),
    forbidden('pets:read', 'This API key lacks the scope pets:read, which listEvents needs for pet.created events (pets:write includes it)'),
    'a type filter it may not read')
  t.same((await app.inject({ url: '/v1/events?type=order.placed', headers: ordersOnly })).json(), [all[1]])
  await assertForbidden(t, await app.inject({ url: `/v1/events/${all[0].id as string}`, headers: ordersOnly }),
    forbidden('pets:read', 'This API key lacks the scope pets:read, which getEvent needs for pet.created events (pets:write includes it)'),
    'one event it may not read')
  t.same((await app.inject({ url: `/v1/events/${all[1].id as string}`, headers: ordersOnly })).json(), all[1])
  // Read by a key that may, then by one that may not: no kept answer crosses over.
  t.equal((await app.inject({ url: `/v1/events/${all[2].id as string}`, headers: JSON_HEADERS })).statusCode, 200)
  t.equal((await app.inject({ url: `/v1/events/${all[2].id as string}`, headers: ordersOnly })).statusCode, 403)
})

t.test('a webhook endpoint needs the read scope of every resource its events reach', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000, webhooks: { allowedNetworks: parseNetworks('127.0.0.0/8') } })
  const hooksOnly = { ...await keyWith(app, { name: 'hooks', scopes: ['webhooks:write'] }), 'content-type': 'application/json' }
  const hooksAndOrders = { ...await keyWith(app, { name: 'hooks-orders', scopes: ['webhooks:write', 'orders:read'] }), 'content-type': 'application/json' }
  const create = (headers: Record<string, string>, events: string[]) =>
    app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers, payload: { url: 'http://127.0.0.1:9/hooks', events } })

  await assertForbidden(t, await create(hooksOnly, ['order.*', 'pet.*']),
    forbidden('pets:read orders:read', 'This API key lacks the scope pets:read and orders:read, which createWebhookEndpoint needs for the events it selects (order.*, pet.*) (pets:write includes pets:read; orders:write includes orders:read)'),
    'webhooks:write alone')
  await assertForbidden(t, await create(hooksAndOrders, ['*']),
    forbidden('pets:read categories:read', 'This API key lacks the scope pets:read and categories:read, which createWebhookEndpoint needs for the events it selects (*) (pets:write includes pets:read; categories:write includes categories:read)'),
    '* reaches pets and categories too')
  await assertForbidden(t, await create(hooksAndOrders, ['pet.updated']),
    forbidden('pets:read', 'This API key lacks the scope pets:read, which createWebhookEndpoint needs for the events it selects (pet.updated) (pets:write includes it)'),
    'one type of a resource it may not read')
  t.equal(await rowCount(app, 'webhook_endpoints'), 0, 'nothing made')

  const own = await create(hooksAndOrders, ['order.*'])
  t.equal(own.statusCode, 201, 'orders it may read')
  const theirs = await create(JSON_HEADERS, ['*'])
  t.equal(theirs.statusCode, 201)
  const id = theirs.json().id
  const before = (await app.inject({ url: `/v1/webhook-endpoints/${id as number}`, headers: JSON_HEADERS })).json()
  const patch = (body: object) => app.inject({ method: 'PATCH', url: `/v1/webhook-endpoints/${id as number}`, headers: hooksAndOrders, payload: body })
  const selectsAll = forbidden('pets:read categories:read', 'This API key lacks the scope pets:read and categories:read, which updateWebhookEndpoint needs for the events it selects (*) (pets:write includes pets:read; categories:write includes categories:read)')
  await assertForbidden(t, await patch({ url: 'http://127.0.0.1:10/elsewhere' }), selectsAll, 'pointing an endpoint that reaches pets elsewhere')
  await assertForbidden(t, await patch({ enabled: false }), selectsAll, 'turning it off or on')
  await assertForbidden(t, await patch({ events: ['pet.created'] }),
    forbidden('pets:read', 'This API key lacks the scope pets:read, which updateWebhookEndpoint needs for the events it selects (pet.created) (pets:write includes it)'),
    'selecting pets')
  t.same((await app.inject({ url: `/v1/webhook-endpoints/${id as number}`, headers: JSON_HEADERS })).json(), before, 'nothing changed')
  const described = await patch({ description: 'Stock sync' })
  t.equal(described.statusCode, 200, 'a description reaches no event')
  t.equal((await patch({ events: ['order.placed'] })).statusCode, 200, 'narrowed to what it may read')
  t.equal((await patch({ url: 'http://127.0.0.1:10/elsewhere' })).statusCode, 200, 'and then edited')

  const recover = (endpoint: number) => app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint}/recover`, headers: hooksAndOrders, payload: { since: '2026-01-01T00:00:00Z' } })
  const other = (await create(JSON_HEADERS, ['pet.*'])).json().id
  await assertForbidden(t, await recover(other),
    forbidden('pets:read', 'This API key lacks the scope pets:read, which recoverWebhookEndpoint needs for the events it selects (pet.*) (pets:write includes it)'),
    'recovering sends data again')
  t.equal((await recover(own.json().id)).statusCode, 202)
  t.equal((await app.inject({ method: 'PATCH', url: '/v1/webhook-endpoints/999999', headers: hooksAndOrders, payload: { enabled: true } })).statusCode, 404, 'an unknown endpoint is 404')
})
