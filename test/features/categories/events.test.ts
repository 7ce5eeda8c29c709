/**
 * The events of categories, on whichever database this run tests: each change is its event
 * in the feed, written with it; read under `categories:read`; delivered to the endpoints
 * that select it or `category.*`.
 */
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { Webhook } from 'standardwebhooks'
import { parseNetworks } from '../../../src/config/values.ts'
import { createApiKey } from '../../../src/features/api-keys/repository.ts'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { errorBody, JSON_TYPE } from '../../helpers/answers.ts'
import { feedOf, readFeed, summary } from '../../helpers/events.ts'
import { startReceiver } from '../../helpers/receiver.ts'
import { until } from '../../helpers/until.ts'

const MERGE_PATCH = { ...AUTH, 'content-type': 'application/merge-patch+json' }

async function send (app: FastifyInstance, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) {
  const headers = payload === undefined ? AUTH : method === 'PATCH' ? MERGE_PATCH : JSON_HEADERS
  return app.inject({ method, url, headers, payload })
}

t.test('each change to a category is its event: data as getCategory answers it, previous the changed fields', async (t) => {
  const app = await build(t)
  const dogs = await send(app, 'POST', '/v1/categories', { name: 'Dogs', description: 'Woof' })
  t.equal(dogs.statusCode, 201)
  t.equal((await send(app, 'PATCH', '/v1/categories/1', { name: 'Hounds', description: null })).statusCode, 200)
  t.equal((await send(app, 'PATCH', '/v1/categories/1', {})).statusCode, 200, 'a patch that changes nothing')
  t.equal((await send(app, 'POST', '/v1/categories', { name: 'hounds' })).statusCode, 409, 'a refused create')
  t.equal((await send(app, 'DELETE', '/v1/categories/1')).statusCode, 204)
  t.equal((await send(app, 'DELETE', '/v1/categories/1')).statusCode, 404, 'a refused delete')
  const events = await feedOf(app, 3)
  t.same(summary(events), ['category.created 1', 'category.updated 1', 'category.deleted 1'], 'a change that changes nothing, or is refused, makes no event')
  t.same(events.map(({ data, previous }) => previous === undefined ? { data } : { data, previous }), [
    { data: dogs.json() },
    { data: { id: 1, name: 'Hounds' }, previous: { name: 'Dogs', description: 'Woof' } },
    { data: { id: 1, name: 'Hounds' } }
  ])
  const only = await app.inject({ url: '/v1/events?type=category.updated', headers: AUTH })
  t.same(summary(JSON.parse(only.body)), ['category.updated 1'], 'the type filter takes category types')
})

t.test('category events are read under categories:read; a key without it is refused them', async (t) => {
  const app = await build(t)
  await send(app, 'POST', '/v1/pets', { name: 'Rex', categoryId: 1 })
  await send(app, 'POST', '/v1/categories', { name: 'Dogs' })
  await feedOf(app, 2)
  const { key } = await createApiKey(app.db, { name: 'pets only', scopes: ['events:read', 'pets:read'] })
  await app.apiKeys.sync(app)
  const petsOnly = { authorization: `Bearer ${key}` }
  const page = await app.inject({ url: '/v1/events', headers: petsOnly })
  t.same(summary(JSON.parse(page.body)), ['pet.created 1'], 'the feed leaves category events out')
  const refused = await app.inject({ url: '/v1/events?type=category.created', headers: petsOnly })
  t.equal(refused.statusCode, 403)
  t.equal(refused.headers['content-type'], JSON_TYPE)
  t.equal(refused.headers['www-authenticate'], 'Bearer realm="petstore", error="insufficient_scope", scope="categories:read"')
  t.same(refused.json(), errorBody('insufficient_scope', 'This API key lacks the scope categories:read, which listEvents needs for category.created events (categories:write includes it)', 403))
  const endpoint = await app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: { ...JSON_HEADERS, ...petsOnly }, payload: { url: 'https://example.com/hook', events: ['category.*'] } })
  t.equal(endpoint.statusCode, 403, 'nor may it subscribe an endpoint to them')
})

t.test('a category event is delivered to the endpoints selecting it or category.*, signed', async (t) => {
  const app = await build(t, { webhooks: { allowedNetworks: parseNetworks('127.0.0.0/8'), pollIntervalMs: 20, retryDelaysMs: [20] } })
  const all = await startReceiver(t)
  const renamed = await startReceiver(t)
  const pets = await startReceiver(t)
  const subscribe = async (url: string, events: string[]) => {
    const res = await app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: JSON_HEADERS, payload: { url, events } })
    t.equal(res.statusCode, 201, res.body)
    return res.json().secret as string
  }
  const allSecret = await subscribe(all.url, ['category.*'])
  const renamedSecret = await subscribe(renamed.url, ['category.updated'])
  await subscribe(pets.url, ['pet.*'])
  await send(app, 'POST', '/v1/categories', { name: 'Dogs' })
  await send(app, 'PATCH', '/v1/categories/1', { name: 'Hounds' })
  await send(app, 'DELETE', '/v1/categories/1')
  await send(app, 'POST', '/v1/pets', { name: 'Rex', categoryId: 1 })
  const feed = (await feedOf(app, 4)).filter((event) => event.type.startsWith('category.'))
  await until(() => all.received.length >= 3 && renamed.received.length >= 1 && pets.received.length >= 1, 'the deliveries')
  const verify = (secret: string, { headers, body }: { headers: Record<string, unknown>, body: string }) =>
    new Webhook(secret).verify(body, headers as Record<string, string>) as object
  const byId = (events: object[]) => [...events].sort((a, b) => (a as { id: string }).id < (b as { id: string }).id ? -1 : 1)
  t.same(byId(all.received.map((request) => verify(allSecret, request))), byId(feed), 'category.*: every category event, as the feed has it')
  t.same(renamed.received.map((request) => verify(renamedSecret, request)), feed.filter((event) => event.type === 'category.updated'))
  t.same(pets.received.map(({ body }) => JSON.parse(body).type), ['pet.created'], 'an endpoint of pet.* gets none of them')
  t.equal((await readFeed(app)).events.length, 4)
})
