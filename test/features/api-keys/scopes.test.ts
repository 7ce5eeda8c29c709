/**
 * Scopes and expiry over HTTP, on whichever database this run tests: each operation needs
 * the scope its security requirement names, or a `:write` scope of the same resource when it
 * names a `:read` one; a key with neither gets 403 `insufficient_scope` (after
 * authentication, never counted against the address), and an expired key a 401 that says so.
 */
import t from 'tap'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { apiDocument } from '../../../src/contract/document.ts'
import { declaredScopes } from '../../../src/contract/operation-security.ts'
import { createApiKey, type NewKey } from '../../../src/features/api-keys/repository.ts'
import { AUTH, build, JSON_HEADERS, TEST_KEY } from '../../helpers/app.ts'
import { errorBody, JSON_TYPE } from '../../helpers/answers.ts'
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

/** The scopes the document's bearer scheme lists, in its order. */
const declared = [...declaredScopes(apiDocument).keys()]

/** The rule under test, stated on its own: `X:write` includes `X:read` when the document lists both. */
const includedBy = (scope: string): string[] => {
  const write = scope.replace(/:read$/, ':write')
  return write !== scope && declared.includes(write) ? [write] : []
}

/** The 403 of a key without `scope`, which `operationId` needs. */
const refusalMessage = (scope: string, operationId: string) => {
  const including = includedBy(scope)
  return `This API key lacks the scope ${scope}, which ${operationId} needs${including.length === 0 ? '' : ` (${including.join(' or ')} includes it)`}`
}

t.test('every operation needs the scope its security requirement names, and says which when it is missing', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  // The operations and their scopes are the document's; what is checked is that each is honoured.
  t.ok(operations.some((op) => op.operationId === 'createPet' && op.scope === 'pets:write'), 'createPet needs pets:write')
  t.ok(operations.every((op) => declared.includes(op.scope)), 'each names a scope the document lists')
  t.ok(includedBy('pets:read').includes('pets:write'), 'the rule is not vacuous here: pets:write includes pets:read')
  const every = app.apiKeys.everyScope
  for (const { operationId, scope, request } of operations) {
    // Every other scope, but none that includes this one.
    const lacking = [scope, ...includedBy(scope)]
    const without = await keyWith(app, { name: `all but ${operationId}`, scopes: every.filter((other) => !lacking.includes(other)) })
    const res = await app.inject({ ...request, headers: { ...without, 'content-type': 'application/json' }, payload: '{}' })
    t.equal(res.statusCode, 403, `${operationId} without ${lacking.join(' or ')}`)
    t.same(res.json(), errorBody('insufficient_scope', refusalMessage(scope, operationId), 403))
    t.equal(res.headers['www-authenticate'], `Bearer realm="petstore", error="insufficient_scope", scope="${scope}"`)
    t.equal(res.headers['cache-control'], 'no-store')
    t.ok(res.headers['x-request-id'])

    for (const enough of lacking) {
      const only = await keyWith(app, { name: `only ${enough} for ${operationId}`, scopes: [enough] })
      const allowed = await app.inject({ ...request, headers: { ...only, 'content-type': 'application/json' }, payload: '{}' })
      t.not([401, 403].includes(allowed.statusCode), true, `${operationId} with only ${enough} passes the key check (${allowed.statusCode})`)
    }
  }
})

t.test('a :write scope includes the :read scope of its resource, and nothing of another resource', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  for (const write of declared.filter((scope) => scope.endsWith(':write'))) {
    const key = await keyWith(app, { name: `only ${write}`, scopes: [write] })
    for (const { operationId, scope, request } of operations) {
      const res = await app.inject({ ...request, headers: { ...key, 'content-type': 'application/json' }, payload: '{}' })
      if (scope === write || includedBy(scope).includes(write)) {
        t.not([401, 403].includes(res.statusCode), true, `${operationId} (${scope}) with only ${write} passes the key check (${res.statusCode})`)
      } else {
        t.equal(res.statusCode, 403, `${operationId} (${scope}) with only ${write}`)
        t.same(res.json(), errorBody('insufficient_scope', refusalMessage(scope, operationId), 403))
      }
    }
  }
})

t.test('a write key reads the pets and orders it may change, whole, as a read key does', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  const [petId] = await addPets(app, 1, { statuses: ['available'] })
  const placed = await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId, quantity: 2 } })
  t.equal(placed.statusCode, 201)
  const petWriter = await keyWith(app, { name: 'pet writer', scopes: ['pets:write'] })
  const orderWriter = await keyWith(app, { name: 'order writer', scopes: ['orders:write'] })
  const reads: Array<[string, string, Record<string, string>]> = [
    ['getPet', `/v1/pets/${petId}`, petWriter],
    ['listPets', '/v1/pets', petWriter],
    ['getOrder', '/v1/store/orders/1', orderWriter],
    ['listOrders', '/v1/store/orders', orderWriter]
  ]
  for (const [operationId, url, key] of reads) {
    const expected = await app.inject({ url, headers: AUTH })
    const res = await app.inject({ url, headers: key })
    t.equal(res.statusCode, 200, operationId)
    t.equal(res.headers['content-type'], JSON_TYPE, operationId)
    t.equal(res.headers.etag, expected.headers.etag, operationId)
    t.equal(res.body, expected.body, `${operationId} answers what a key holding every scope gets`)
  }
  // Still nothing of the other resource: a pet writer reads no order, an order writer no pet.
  const order = await app.inject({ url: '/v1/store/orders/1', headers: petWriter })
  t.equal(order.statusCode, 403)
  t.same(order.json(), errorBody('insufficient_scope', 'This API key lacks the scope orders:read, which getOrder needs (orders:write includes it)', 403))
  t.equal(order.headers['www-authenticate'], 'Bearer realm="petstore", error="insufficient_scope", scope="orders:read"')
  const pet = await app.inject({ url: `/v1/pets/${petId}`, headers: orderWriter })
  t.equal(pet.statusCode, 403)
  t.same(pet.json(), errorBody('insufficient_scope', 'This API key lacks the scope pets:read, which getPet needs (pets:write includes it)', 403))
  t.equal(pet.headers['www-authenticate'], 'Bearer realm="petstore", error="insufficient_scope", scope="pets:read"')
})

t.test('a read key cannot write: a whole 403 for each write, nothing changes, and it counts against the key, never the address', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000, rateLimit: { perKey: 100, anonymous: 2 } })
  const [petId, heldId] = await addPets(app, 2, { statuses: ['available'] })
  const placed = await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: heldId } })
  t.equal(placed.statusCode, 201)
  const before = await Promise.all(['/v1/pets', '/v1/store/orders'].map((url) => app.inject({ url, headers: AUTH })))
  const reader = await keyWith(app, { name: 'website', scopes: ['pets:read', 'orders:read'] })
  // Requests that would change something if allowed; a write not named here is sent as
  // `operations` makes it (its path parameters 1: the first pet, the order placed).
  const changing: Record<string, InjectOptions[]> = {
    createPet: [{ method: 'POST', url: '/v1/pets', payload: { name: 'Rex', categoryId: 1 } }],
    updatePet: [{ method: 'PATCH', url: `/v1/pets/${petId}`, payload: { status: 'sold' } }, { method: 'PATCH', url: `/v1/pets/${petId}`, payload: {} }],
    placeOrder: [{ method: 'POST', url: '/v1/store/orders', payload: { petId } }],
    updateOrder: [{ method: 'PATCH', url: '/v1/store/orders/1', payload: { complete: true } }]
  }
  const writes = operations.filter((op) => op.scope.endsWith(':write'))
    .flatMap(({ operationId, scope, request }) => (changing[operationId] ?? [request]).map((write) => [operationId, scope, write] as const))
  t.ok(Object.keys(changing).every((operationId) => writes.some(([write]) => write === operationId)), 'every write of the document, those above among them')
  for (const [operationId, scope, write] of writes) {
    const res = await app.inject({ ...write, headers: { ...reader, 'content-type': 'application/json', 'idempotency-key': `once-${operationId}` } })
    t.equal(res.statusCode, 403, `${write.method} ${write.url}`)
    t.equal(res.headers['content-type'], JSON_TYPE)
    t.same(res.json(), errorBody('insufficient_scope', `This API key lacks the scope ${scope}, which ${operationId} needs`, 403))
    t.equal(res.headers['www-authenticate'], `Bearer realm="petstore", error="insufficient_scope", scope="${scope}"`)
    t.equal(res.headers['ratelimit-limit'], '100', 'it is counted against the key')
  }
  t.equal(await rowCount(app, 'pets'), 2, 'no pet was made')
  t.equal(await rowCount(app, 'orders'), 1, 'no order was placed')
  t.equal(await rowCount(app, 'idempotency_keys'), 0, 'no answer was kept for a retry')
  const after = await Promise.all(['/v1/pets', '/v1/store/orders'].map((url) => app.inject({ url, headers: AUTH })))
  t.same(after.map((res) => res.body), before.map((res) => res.body), 'the pets and the order are as they were')

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

t.test('a refusal tells a key nothing of a resource it may not read', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000, metrics: true })
  await addPets(app, 1, { statuses: ['available'] })
  const order = await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: 1 } })
  t.equal(order.statusCode, 201)
  const held = (which: string) => errorBody('conflict', `Pet 1 is held by ${which}; its status cannot change until the order is completed or cancelled`, 409)
  const patch = { method: 'PATCH', url: '/v1/pets/1', payload: { status: 'sold' } } as const

  const petsOnly = await keyWith(app, { name: 'pets only', scopes: ['pets:write'] })
  const blind = await app.inject({ ...patch, headers: { ...petsOnly, 'content-type': 'application/json' } })
  t.equal(blind.statusCode, 409)
  t.same(blind.json(), held('an open order'), 'a key without orders:read is not told which order')
  const seeing = await app.inject({ ...patch, headers: JSON_HEADERS })
  t.same(seeing.json(), held(`open order ${order.json().id}`), 'a key that may read orders is')

  const ordersOnly = await keyWith(app, { name: 'orders only', scopes: ['orders:write'] })
  const again = { method: 'POST', url: '/v1/store/orders', payload: { petId: 1 } } as const
  const unseen = await app.inject({ ...again, headers: { ...ordersOnly, 'content-type': 'application/json' } })
  t.equal(unseen.statusCode, 409)
  t.same(unseen.json(), errorBody('conflict', 'Pet 1 is not available', 409), 'a key without pets:read is not told the pet\'s status')
  const seen = await app.inject({ ...again, headers: JSON_HEADERS })
  t.same(seen.json(), errorBody('conflict', 'Pet 1 is not available (its status is pending)', 409))
  t.equal(await rowCount(app, 'orders'), 1, 'nothing was written')
  t.notMatch(await app.prometheus!.registry.metrics(), /^api_key_refusals_total\{/m, 'asking what a key may read refuses nothing')
})
