/**
 * Scopes and expiry over HTTP, on whichever database this run tests: each operation needs
 * the scope its security requirement names, a key without it gets 403 `insufficient_scope`
 * (after authentication, never counted against the address), and an expired key a 401
 * that says so.
 */
import t from 'tap'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { apiDocument } from '../../../src/contract/document.ts'
import { createApiKey, type NewKey } from '../../../src/features/api-keys/repository.ts'
import { build, JSON_HEADERS, TEST_KEY } from '../../helpers/app.ts'
import { errorBody } from '../../helpers/answers.ts'
import { addPets, rowCount } from '../../helpers/store.ts'

const EXPIRED_CHALLENGE = 'Bearer realm="petstore", error="invalid_token", error_description="the key has expired"'

async function keyWith (app: FastifyInstance, key: NewKey): Promise<Record<string, string>> {
  const { key: secret } = await createApiKey(app.db, key)
  await app.apiKeys.sync(app)
  return { authorization: `Bearer ${secret}` }
}

/** A request for each operation of the document, with its path parameters set to 1. */
const operations = [...apiDocument.operations.values()].map((op) => ({
  operationId: op.operationId,
  scope: (apiDocument.security(op.operationId)[0]!.bearerAuth as string[])[0]!,
  request: { method: op.method.toUpperCase(), url: `/v1${op.path.replace(/\{[^}]+\}/g, '1')}` } as InjectOptions
}))

t.test('every operation needs the scope its security requirement names, and says which when it is missing', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  t.same(operations.map((op) => `${op.operationId} ${op.scope}`).sort(), [
    'cancelOrder orders:write', 'createPet pets:write', 'getOrder orders:read', 'getPet pets:read', 'listOrders orders:read',
    'listPets pets:read', 'placeOrder orders:write', 'updateOrder orders:write', 'updatePet pets:write'
  ])
  const every = app.apiKeys.everyScope
  for (const { operationId, scope, request } of operations) {
    const without = await keyWith(app, { name: `all but ${operationId}`, scopes: every.filter((other) => other !== scope) })
    const res = await app.inject({ ...request, headers: { ...without, 'content-type': 'application/json' }, payload: '{}' })
    t.equal(res.statusCode, 403, `${operationId} without ${scope}`)
    t.same(res.json(), errorBody('insufficient_scope', `This API key lacks the scope ${scope}, which ${operationId} needs`, 403))
    t.equal(res.headers['www-authenticate'], `Bearer realm="petstore", error="insufficient_scope", scope="${scope}"`)
    t.equal(res.headers['cache-control'], 'no-store')
    t.ok(res.headers['x-request-id'])

    const only = await keyWith(app, { name: `only ${operationId}`, scopes: [scope] })
    const allowed = await app.inject({ ...request, headers: { ...only, 'content-type': 'application/json' }, payload: '{}' })
    t.not([401, 403].includes(allowed.statusCode), true, `${operationId} with only ${scope} passes the key check (${allowed.statusCode})`)
  }
})

t.test('a key without the scope changes nothing, and its refusal counts against the key, never the address', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000, rateLimit: { perKey: 100, anonymous: 2 } })
  const [petId] = await addPets(app, 1, { statuses: ['available'] })
  const reader = await keyWith(app, { name: 'website', scopes: ['pets:read', 'orders:read'] })
  const writes: InjectOptions[] = [
    { method: 'POST', url: '/v1/pets', payload: { name: 'Rex', categoryId: 1 } },
    { method: 'PATCH', url: `/v1/pets/${petId}`, payload: { status: 'sold' } },
    { method: 'POST', url: '/v1/store/orders', payload: { petId } }
  ]
  for (const write of writes) {
    const res = await app.inject({ ...write, headers: { ...reader, 'content-type': 'application/json', 'idempotency-key': 'once' } })
    t.equal(res.statusCode, 403, `${write.method} ${write.url}`)
    t.equal(res.headers['ratelimit-limit'], '100', 'it is counted against the key')
  }
  t.equal(await rowCount(app, 'pets'), 1, 'no pet was made')
  t.equal(await rowCount(app, 'orders'), 0, 'no order was placed')
  t.equal(await rowCount(app, 'idempotency_keys'), 0, 'no answer was kept for a retry')
  const pet = await app.inject({ url: '/v1/pets?limit=1', headers: reader })
  t.equal(pet.statusCode, 200)
  t.equal(pet.json()[0].status, 'available', 'the pet is as it was')

  // The address allowance (2) is whole: a bad key is its first failure, not past it.
  for (const attempt of [1, 2]) {
    const res = await app.inject({ url: '/v1/pets', headers: { authorization: 'Bearer wrong-key-0000000000' } })
    t.equal(res.statusCode, 401, `failed key check ${attempt}`)
    t.equal(res.headers['ratelimit-remaining'], String(2 - attempt))
  }
})

t.test('authentication comes first: a bad or missing key is a 401 whatever the operation needs', async (t) => {
  const app = await build(t)
  for (const headers of [{}, { authorization: 'Bearer not-a-key-at-all-000000' }]) {
    const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: { ...headers, 'content-type': 'application/json' }, payload: '{}' })
    t.equal(res.statusCode, 401)
    t.equal(res.json().code, 'unauthorized')
  }
})

t.test('a path outside the document is a 404 for any valid key, whatever its scopes', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  const narrow = await keyWith(app, { name: 'narrow', scopes: ['orders:read'] })
  const res = await app.inject({ url: '/v1/nothing-here', headers: narrow })
  t.equal(res.statusCode, 404)
  t.equal(res.json().code, 'not_found')
})

t.test('keys of the environment hold every scope', async (t) => {
  const app = await build(t, { apiKeys: [TEST_KEY] })
  const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1 } })
  t.equal(res.statusCode, 201)
})

t.test('an expired key is a 401 that says it expired, counted against the address like any failed key', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000, rateLimit: { perKey: 100, anonymous: 5 } })
  const expired = await keyWith(app, { name: 'old', scopes: app.apiKeys.everyScope, expiresAt: new Date(Date.now() - 1000) })
  const res = await app.inject({ url: '/v1/pets', headers: expired })
  t.equal(res.statusCode, 401)
  t.same(res.json(), errorBody('unauthorized', 'The API key has expired', 401))
  t.equal(res.headers['www-authenticate'], EXPIRED_CHALLENGE)
  t.equal(res.headers['ratelimit-remaining'], '4', 'it counts against the address')
})

t.test('a key stops at its expiry, without waiting for the next reload', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  const soon = await keyWith(app, { name: 'soon', scopes: app.apiKeys.everyScope, expiresAt: new Date(Date.now() + 3000) })
  t.equal((await app.inject({ url: '/v1/pets', headers: soon })).statusCode, 200, 'it works before its expiry')
  const expiry = (await app.db.selectFrom('api_keys').select('expires_at').executeTakeFirstOrThrow()).expires_at!
  // Wait for the instant itself, then ask: no reload happens meanwhile (the interval is a minute).
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(expiry) - Date.now() + 10)))
  const res = await app.inject({ url: '/v1/pets', headers: soon })
  t.equal(res.statusCode, 401)
  t.equal(res.headers['www-authenticate'], EXPIRED_CHALLENGE)
})

t.test('metrics count the refusals by operation and reason', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000, metrics: true })
  const reader = await keyWith(app, { name: 'reader', scopes: ['pets:read'] })
  await app.inject({ method: 'POST', url: '/v1/pets', headers: reader })
  await app.inject({ method: 'POST', url: '/v1/pets', headers: reader })
  await app.inject({ method: 'DELETE', url: '/v1/store/orders/1', headers: reader })
  await app.inject({ url: '/v1/pets' })
  const text = await app.prometheus!.registry.metrics()
  t.match(text, /^api_key_refusals_total\{operation="createPet",reason="insufficient_scope"\} 2$/m)
  t.match(text, /^api_key_refusals_total\{operation="cancelOrder",reason="insufficient_scope"\} 1$/m)
  t.match(text, /^api_key_refusals_total\{operation="listPets",reason="missing"\} 1$/m)
})
