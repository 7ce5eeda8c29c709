/**
 * The webhook endpoints API (docs/decisions.md#webhook-endpoints), on whichever database this
 * run tests: an endpoint added with its secret shown once, read, listed, edited with a merge
 * patch, its secret rotated, removed; every refusal with its whole Error body; secrets never
 * in the database or a kept answer in the clear.
 */
import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { Webhook } from 'standardwebhooks'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { errorBody, JSON_TYPE } from '../../helpers/answers.ts'
import { parseNetworks } from '../../../src/config/values.ts'
import { nextLink } from '../../helpers/store.ts'

const LOCAL = parseNetworks('127.0.0.0/8')
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/
const MERGE_PATCH = { ...AUTH, 'content-type': 'application/merge-patch+json' }

// Names resolve without a network: `public.test` to a public address, `inside.test` to a private one.
const lookup = async (host: string) => {
  if (host === 'public.test') return ['93.184.215.14']
  if (host === 'inside.test') return ['93.184.215.14', '10.1.2.3']
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
}

async function app (t: Test): Promise<FastifyInstance> {
  return build(t, { webhooks: { allowedNetworks: LOCAL, lookup } })
}

async function create (app: FastifyInstance, body: object, headers: Record<string, string> = JSON_HEADERS) {
  return app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers, payload: body })
}

t.test('an endpoint is added with its secret, which no other answer shows', async (t) => {
  const service = await app(t)
  const res = await create(service, { url: 'https://public.test/hooks', events: ['pet.created', 'order.*'], description: 'Stock sync' })
  t.equal(res.statusCode, 201)
  t.equal(res.headers['content-type'], JSON_TYPE)
  t.equal(res.headers['api-stability'], 'experimental')
  const created = res.json()
  t.match(created.secret, SECRET)
  t.match(created.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
  t.same(Object.keys(created), ['id', 'url', 'events', 'enabled', 'createdAt', 'secret', 'description'], 'the required fields first, in the order of the document')
  const { secret, ...endpoint } = created
  t.same(endpoint, { id: 1, url: 'https://public.test/hooks', events: ['pet.created', 'order.*'], enabled: true, createdAt: created.createdAt, description: 'Stock sync' })
  t.equal(Buffer.from(secret.slice('whsec_'.length), 'base64').length, 32, '32 random bytes')
  t.doesNotThrow(() => new Webhook(secret), 'a secret the reference library takes')

  const got = await service.inject({ method: 'GET', url: '/v1/webhook-endpoints/1', headers: AUTH })
  t.equal(got.statusCode, 200)
  t.same(got.json(), endpoint, 'read back without its secret')
  t.ok(got.headers.etag)
  const list = await service.inject({ method: 'GET', url: '/v1/webhook-endpoints', headers: AUTH })
  t.same(list.json(), [endpoint])

  const plain = await create(service, { url: 'http://127.0.0.1:9/hooks', events: ['*'] })
  t.equal(plain.statusCode, 201, 'plain http inside WEBHOOK_ALLOWED_NETWORKS')
  t.notOk('description' in plain.json(), 'no description, no field')
  t.not(plain.json().secret, secret, 'every endpoint has a secret of its own')
})

t.test('secrets are stored sealed, and a kept answer holding one is kept sealed too', async (t) => {
  const service = await app(t)
  const res = await create(service, { url: 'https://public.test/hooks', events: ['*'] }, { ...JSON_HEADERS, 'idempotency-key': 'add-hooks-1' })
  const { secret } = res.json()
  const again = await create(service, { url: 'https://public.test/hooks', events: ['*'] }, { ...JSON_HEADERS, 'idempotency-key': 'add-hooks-1' })
  t.equal(again.headers['idempotent-replayed'], 'true')
  t.equal(again.body, res.body, 'the retry gets the first answer, byte for byte')
  const rotated = await service.inject({ method: 'POST', url: '/v1/webhook-endpoints/1/rotate-secret', headers: JSON_HEADERS, payload: {} })
  const tables = ['webhook_endpoints', 'idempotency_keys'] as const
  const stored = JSON.stringify(await Promise.all(tables.map(async (table) => service.db.selectFrom(table).selectAll().execute())), (_key, value: unknown) => typeof value === 'bigint' ? String(value) : value)
  const key = (text: string) => text.slice('whsec_'.length)
  t.notOk(stored.includes(key(secret)), 'no secret in the clear in the database')
  t.notOk(stored.includes(key(rotated.json().secret)), 'nor the rotated one')
  t.match(stored, /v1:[0-9a-f]{16}:/, 'sealed ones')
  t.equal((await service.db.selectFrom('webhook_endpoints').select('id').execute()).length, 1, 'one endpoint for the two requests')
})

t.test('a URL the service will not call is 400 invalid_webhook_url, saying why, and nothing is added', async (t) => {
  const service = await app(t)
  const cases: Array<[string, string]> = [
    ['https://10.0.0.7/hooks', 'its host 10.0.0.7 is at 10.0.0.7, a private address, not a public one'],
    ['https://127.0.0.1.nip.invalid/', 'its host 127.0.0.1.nip.invalid does not resolve'],
    ['https://169.254.169.254/latest/meta-data', 'its host 169.254.169.254 is at 169.254.169.254, a linkLocal address, not a public one'],
    ['https://[::1]/hooks', 'its host ::1 is at ::1, a loopback address, not a public one'],
    ['https://[::ffff:192.168.1.1]/', 'its host ::ffff:c0a8:101 is at ::ffff:c0a8:101, a private address, not a public one'],
    ['https://inside.test/hooks', 'its host inside.test is at 10.1.2.3, a private address, not a public one'],
    ['http://public.test/hooks', 'its scheme is http, not https (plain http only to WEBHOOK_ALLOWED_NETWORKS)'],
    ['ftp://public.test/hooks', 'its scheme is ftp, not https'],
    ['https://user:pass@public.test/', 'it holds credentials; put a secret in the path or rely on the signature'],
    ['not a url', 'it is not an absolute URL'],
    ['/hooks', 'it is not an absolute URL']
  ]
  for (const [url, why] of cases) {
    const res = await create(service, { url, events: ['*'] })
    t.equal(res.statusCode, 400, url)
    t.same(res.json(), errorBody('invalid_webhook_url', `body/url is not a URL webhooks can go to: ${why}`, 400), url)
  }
  const list = await service.inject({ method: 'GET', url: '/v1/webhook-endpoints', headers: AUTH })
  t.same(list.json(), [], 'no endpoint was added')
})

t.test('the events an endpoint selects are types the document declares, a resource\'s, or all', async (t) => {
  const service = await app(t)
  const allowed = 'pet.created, pet.updated, category.created, category.updated, category.deleted, order.placed, order.updated, order.cancelled, pet.*, category.*, order.*, *'
  for (const events of [['pet.deleted'], ['user.*'], ['PET.CREATED']]) {
    const res = await create(service, { url: 'https://public.test/', events })
    t.same(res.json(), errorBody('invalid_request', `body/events/0 must be one of: ${allowed}`, 400), events[0])
  }
  t.same((await create(service, { url: 'https://public.test/', events: [] })).json(), errorBody('invalid_request', 'body/events must NOT have fewer than 1 items', 400))
  t.same((await create(service, { url: 'https://public.test/', events: ['*', '*'] })).json().code, 'invalid_request', 'each once')
  t.same((await create(service, { url: 'https://public.test/' })).json(), errorBody('invalid_request', "body must have required property 'events'", 400))
  t.same((await create(service, { url: 'https://public.test/', events: ['*'], secret: 'whsec_mine' })).json(), errorBody('invalid_request', "body must NOT have additional property 'secret'", 400))
})

t.test('a merge patch edits an endpoint; disabling and enabling it', async (t) => {
  const service = await app(t)
  const { secret: _secret, ...endpoint } = (await create(service, { url: 'https://public.test/a', events: ['pet.*'], description: 'first' })).json()
  const patch = async (payload: object) => service.inject({ method: 'PATCH', url: '/v1/webhook-endpoints/1', headers: MERGE_PATCH, payload })
  t.same((await patch({})).json(), endpoint, '{} changes nothing')
  const edited = await patch({ url: 'https://public.test/b', events: ['order.placed'], description: null, enabled: false })
  t.equal(edited.statusCode, 200)
  const { description: _description, ...rest } = endpoint
  t.same(edited.json(), { ...rest, url: 'https://public.test/b', events: ['order.placed'], enabled: false })
  t.same((await patch({ enabled: true })).json().enabled, true)
  t.same((await patch({ url: 'https://inside.test/' })).json(), errorBody('invalid_webhook_url', 'body/url is not a URL webhooks can go to: its host inside.test is at 10.1.2.3, a private address, not a public one', 400))
  t.same((await patch({ enabled: 'no' })).json(), errorBody('invalid_request', 'body/enabled must be boolean', 400))
  t.same((await patch({ secret: 'x' })).json(), errorBody('invalid_request', "body must NOT have additional property 'secret'", 400))
  const subscriptions = await service.db.selectFrom('webhook_subscriptions').select('selection').execute()
  t.same(subscriptions, [{ selection: 'order.placed' }], 'the subscriptions follow the events')
})

t.test('a rotation gives a new secret, the old one live for the grace', async (t) => {
  const service = await app(t)
  await create(service, { url: 'https://public.test/', events: ['*'] })
  const before = Date.now()
  const rotated = await service.inject({ method: 'POST', url: '/v1/webhook-endpoints/1/rotate-secret', headers: JSON_HEADERS, payload: {} })
  t.equal(rotated.statusCode, 200)
  t.match(rotated.json(), { secret: SECRET })
  const until = Date.parse(rotated.json().previousSecretExpiresAt)
  t.ok(until >= before + 86_400_000 && until <= Date.now() + 86_400_000, 'a day of grace by default')
  const none = await service.inject({ method: 'POST', url: '/v1/webhook-endpoints/1/rotate-secret', headers: JSON_HEADERS, payload: { graceSeconds: 0 } })
  t.same(Object.keys(none.json()), ['secret'], 'no grace, no previous secret')
  const row = await service.db.selectFrom('webhook_endpoints').select(['previous_secret', 'previous_secret_expires_at']).executeTakeFirstOrThrow()
  t.same(row, { previous_secret: null, previous_secret_expires_at: null })
  for (const graceSeconds of [-1, 604801, 1.5]) {
    const res = await service.inject({ method: 'POST', url: '/v1/webhook-endpoints/1/rotate-secret', headers: JSON_HEADERS, payload: { graceSeconds } })
    t.equal(res.statusCode, 400, String(graceSeconds))
    t.equal(res.json().code, 'invalid_request')
  }
})

t.test('an unknown endpoint is 404 on every operation, and a removed one is gone', async (t) => {
  const service = await app(t)
  await create(service, { url: 'https://public.test/', events: ['*'] })
  const removed = await service.inject({ method: 'DELETE', url: '/v1/webhook-endpoints/1', headers: AUTH })
  t.equal(removed.statusCode, 204)
  t.equal(removed.body, '')
  const requests = [
    { method: 'GET', url: '/v1/webhook-endpoints/1', headers: AUTH },
    { method: 'PATCH', url: '/v1/webhook-endpoints/1', headers: MERGE_PATCH, payload: {} },
    { method: 'DELETE', url: '/v1/webhook-endpoints/1', headers: AUTH },
    { method: 'POST', url: '/v1/webhook-endpoints/1/rotate-secret', headers: JSON_HEADERS, payload: {} },
    { method: 'GET', url: '/v1/webhook-endpoints/1/deliveries', headers: AUTH },
    { method: 'POST', url: '/v1/webhook-endpoints/1/recover', headers: JSON_HEADERS, payload: { since: '2026-01-01T00:00:00Z' } }
  ] as const
  for (const request of requests) {
    const res = await service.inject(request)
    t.equal(res.statusCode, 404, `${request.method} ${request.url}`)
    t.same(res.json(), errorBody('not_found', 'Webhook endpoint 1 not found', 404))
    t.equal(res.headers['api-stability'], 'experimental')
  }
  t.same(await service.db.selectFrom('webhook_subscriptions').selectAll().execute(), [], 'its subscriptions went with it')
})

t.test('the list pages by id', async (t) => {
  const service = await app(t)
  for (let i = 0; i < 5; i++) await create(service, { url: `https://public.test/${i}`, events: ['*'] })
  const first = await service.inject({ method: 'GET', url: '/v1/webhook-endpoints?limit=2', headers: AUTH })
  t.same(first.json().map((endpoint: { id: number }) => endpoint.id), [1, 2])
  const link = nextLink(String(first.headers.link))
  t.match(link, /^\/v1\/webhook-endpoints\?limit=2&cursor=/)
  const second = await service.inject({ method: 'GET', url: link!, headers: AUTH })
  t.same(second.json().map((endpoint: { id: number }) => endpoint.id), [3, 4])
  const last = await service.inject({ method: 'GET', url: nextLink(String(second.headers.link))!, headers: AUTH })
  t.same(last.json().map((endpoint: { id: number }) => endpoint.id), [5])
  t.equal(last.headers.link, undefined, 'the last page has no Link')
})

t.test('recovering a disabled endpoint is 409 conflict', async (t) => {
  const service = await app(t)
  await create(service, { url: 'https://public.test/', events: ['*'] })
  await service.inject({ method: 'PATCH', url: '/v1/webhook-endpoints/1', headers: MERGE_PATCH, payload: { enabled: false } })
  const res = await service.inject({ method: 'POST', url: '/v1/webhook-endpoints/1/recover', headers: JSON_HEADERS, payload: { since: '2026-01-01T00:00:00Z' } })
  t.equal(res.statusCode, 409)
  t.same(res.json(), errorBody('conflict', 'Webhook endpoint 1 is disabled; enable it before recovering what it missed', 409))
  const bad = await service.inject({ method: 'POST', url: '/v1/webhook-endpoints/1/recover', headers: JSON_HEADERS, payload: { since: 'yesterday' } })
  t.same(bad.json(), errorBody('invalid_request', 'body/since must match format "date-time"', 400))
})

t.test('at most WEBHOOK_MAX_ENDPOINTS endpoints: one more is 409 conflict naming the setting, and nothing is added', async (t) => {
  const service = await build(t, { webhooks: { allowedNetworks: LOCAL, lookup, maxEndpoints: 3 } })
  // At once, as instances or clients may: no more than three, whoever wins.
  const answers = await Promise.all(Array.from({ length: 6 }, async (_, i) => create(service, { url: `https://public.test/${i}`, events: ['*'] })))
  t.same(answers.map((res) => res.statusCode).sort(), [201, 201, 201, 409, 409, 409])
  for (const res of answers.filter((res) => res.statusCode === 409)) {
    t.equal(res.headers['content-type'], JSON_TYPE)
    t.equal(res.headers['cache-control'], 'no-store')
    t.same(res.json(), errorBody('conflict', 'There are 3 webhook endpoints already, the most this service keeps (WEBHOOK_MAX_ENDPOINTS): remove one, or edit one to send where this one would', 409))
  }
  const count = async () => Number((await service.db.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)
  t.equal(await count(), 3)
  const disabled = answers.find((res) => res.statusCode === 201)!.json().id
  await service.inject({ method: 'PATCH', url: `/v1/webhook-endpoints/${disabled as number}`, headers: MERGE_PATCH, payload: { enabled: false } })
  t.equal((await create(service, { url: 'https://public.test/more', events: ['*'] })).statusCode, 409, 'a disabled endpoint counts: it may be enabled again')
  t.equal((await service.inject({ method: 'DELETE', url: `/v1/webhook-endpoints/${disabled as number}`, headers: AUTH })).statusCode, 204)
  t.equal((await create(service, { url: 'https://public.test/more', events: ['*'] })).statusCode, 201, 'a removed one makes room')
  t.equal(await count(), 3)
})
