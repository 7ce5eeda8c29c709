/**
 * getOrder and updateOrder, on whichever database this run tests: whole bodies, ETags and
 * 304s, merge patches under both media types, and every refusal.
 */
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { errorBody, JSON_TYPE, orderBody } from '../../helpers/answers.ts'
import { NOT_DECIMAL_DIGITS } from '../../helpers/inputs.ts'
import { addPets, rowCount } from '../../helpers/store.ts'

const ORDERS = '/v1/store/orders'
const MERGE_PATCH = { ...AUTH, 'content-type': 'application/merge-patch+json' }

/** `count` available pets, and an order for each, placed with `order`'s fields. */
async function ordersFor (app: FastifyInstance, count: number, order: object = {}) {
  const pets = await addPets(app, count, { statuses: ['available'] })
  for (const petId of pets) {
    const res = await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId, ...order } })
    if (res.statusCode !== 201) throw new Error(res.body)
  }
}

const patch = (app: FastifyInstance, id: number | string, payload: string, headers: Record<string, string> = MERGE_PATCH) =>
  app.inject({ method: 'PATCH', url: `${ORDERS}/${id}`, headers, payload })

t.test('getOrder answers 200 with the order and an ETag; sent back, 304', async (t) => {
  const app = await build(t)
  await ordersFor(app, 1, { quantity: 3, shipDate: '2026-12-01T10:00:00Z' })
  const res = await app.inject({ url: `${ORDERS}/1`, headers: { ...AUTH, 'x-request-id': 'get-order-1' } })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], JSON_TYPE)
  t.equal(res.headers['api-stability'], 'experimental')
  t.equal(res.headers['cache-control'], 'private, no-cache')
  t.equal(res.headers['x-request-id'], 'get-order-1')
  t.match(res.headers.etag, /^"[A-Za-z0-9_-]+"$/)
  t.equal(res.body, orderBody({ id: 1, petId: 1, quantity: 3, complete: false, shipDate: '2026-12-01T10:00:00Z' }))

  const again = await app.inject({ url: `${ORDERS}/1`, headers: { ...AUTH, 'if-none-match': res.headers.etag as string } })
  t.equal(again.statusCode, 304)
  t.equal(again.body, '')
  t.equal(again.headers.etag, res.headers.etag)
  t.equal(again.headers['api-stability'], 'experimental')

  await patch(app, 1, '{"complete":true}')
  const changed = await app.inject({ url: `${ORDERS}/1`, headers: { ...AUTH, 'if-none-match': res.headers.etag as string } })
  t.equal(changed.statusCode, 200, 'a changed order no longer matches its old ETag')
  t.equal(changed.body, orderBody({ id: 1, petId: 1, quantity: 3, complete: true, shipDate: '2026-12-01T10:00:00Z' }))
  t.not(changed.headers.etag, res.headers.etag)
})

t.test('getOrder refuses a malformed id with 400, and answers 404 for an unknown or cancelled order', async (t) => {
  const app = await build(t)
  await ordersFor(app, 1)
  await app.inject({ method: 'DELETE', url: `${ORDERS}/1`, headers: AUTH })
  const cases: Array<[string, number, object]> = [
    ['0', 400, errorBody('invalid_request', 'params/orderId must be >= 1', 400)],
    ['abc', 400, errorBody('invalid_request', 'params/orderId must be integer', 400)],
    ...NOT_DECIMAL_DIGITS.map((text): [string, number, object] => [text, 400, errorBody('invalid_request', 'params/orderId must be integer', 400)]),
    ['9223372036854775808', 400, errorBody('invalid_request', 'params/orderId must be <= 9223372036854775807', 400)],
    ['1', 404, errorBody('not_found', 'Order 1 not found', 404)],
    ['9223372036854775807', 404, errorBody('not_found', 'Order 9223372036854775807 not found', 404)]
  ]
  for (const [id, status, body] of cases) {
    const res = await app.inject({ url: `${ORDERS}/${id}`, headers: AUTH })
    t.equal(res.statusCode, status, id)
    t.equal(res.headers['content-type'], JSON_TYPE, id)
    t.equal(res.headers['api-stability'], 'experimental', id)
    t.equal(res.headers['cache-control'], 'no-store', id)
    t.equal(res.headers.etag, undefined, id)
    t.same(res.json(), body, id)
  }
})

t.test('updateOrder applies a merge patch of shipDate and complete, under either media type', async (t) => {
  const app = await build(t)
  await ordersFor(app, 1, { quantity: 2 })
  const steps: Array<[string, Record<string, string>, string]> = [
    ['{}', MERGE_PATCH, orderBody({ id: 1, petId: 1, quantity: 2, complete: false })],
    ['{"shipDate":"2026-12-01T10:00:00.5+02:00"}', MERGE_PATCH, orderBody({ id: 1, petId: 1, quantity: 2, complete: false, shipDate: '2026-12-01T10:00:00.5+02:00' })],
    ['{"shipDate":"2026-12-02T08:00:00Z"}', JSON_HEADERS, orderBody({ id: 1, petId: 1, quantity: 2, complete: false, shipDate: '2026-12-02T08:00:00Z' })],
    ['{"complete":false}', JSON_HEADERS, orderBody({ id: 1, petId: 1, quantity: 2, complete: false, shipDate: '2026-12-02T08:00:00Z' })],
    ['{"shipDate":null}', MERGE_PATCH, orderBody({ id: 1, petId: 1, quantity: 2, complete: false })],
    ['{"complete":true,"shipDate":"2026-12-03T09:00:00Z"}', MERGE_PATCH, orderBody({ id: 1, petId: 1, quantity: 2, complete: true, shipDate: '2026-12-03T09:00:00Z' })],
    ['{"complete":true}', JSON_HEADERS, orderBody({ id: 1, petId: 1, quantity: 2, complete: true, shipDate: '2026-12-03T09:00:00Z' })],
    ['{"shipDate":null}', MERGE_PATCH, orderBody({ id: 1, petId: 1, quantity: 2, complete: true })]
  ]
  for (const [payload, headers, body] of steps) {
    const res = await patch(app, 1, payload, headers)
    t.equal(res.statusCode, 200, payload)
    t.equal(res.headers['content-type'], JSON_TYPE, payload)
    t.equal(res.headers['api-stability'], 'experimental', payload)
    t.equal(res.headers['cache-control'], 'no-store', payload)
    t.equal(res.body, body, payload)
    t.equal((await app.inject({ url: `${ORDERS}/1`, headers: AUTH })).body, body, `${payload}: getOrder agrees`)
  }
  t.equal((await app.inject({ url: '/v1/pets/1', headers: AUTH })).json().status, 'sold', 'completing sold the pet')
})

t.test('updateOrder refuses to make a complete order incomplete with 409, and changes nothing', async (t) => {
  const app = await build(t)
  await ordersFor(app, 1, { complete: true, shipDate: '2026-12-01T10:00:00Z' })
  for (const payload of ['{"complete":false}', '{"complete":false,"shipDate":null}']) {
    const res = await patch(app, 1, payload)
    t.equal(res.statusCode, 409, payload)
    t.equal(res.headers['content-type'], JSON_TYPE)
    t.equal(res.headers['api-stability'], 'experimental')
    t.same(res.json(), errorBody('conflict', 'Order 1 is complete (shipped) and cannot be made incomplete again', 409))
  }
  t.equal((await app.inject({ url: `${ORDERS}/1`, headers: AUTH })).body, orderBody({ id: 1, petId: 1, quantity: 1, complete: true, shipDate: '2026-12-01T10:00:00Z' }))
  t.equal((await app.inject({ url: '/v1/pets/1', headers: AUTH })).json().status, 'sold')
})

t.test('updateOrder refuses bad patches with 400 naming the field, and changes nothing', async (t) => {
  const app = await build(t)
  await ordersFor(app, 1)
  const cases: Array<[string, string]> = [
    ['{"complete":null}', 'body/complete must be boolean'],
    ['{"complete":"true"}', 'body/complete must be boolean'],
    ['{"shipDate":"tomorrow"}', 'body/shipDate must match format "date-time"'],
    ['{"shipDate":5}', 'body/shipDate must be string or null'],
    ['{"id":2}', "body must NOT have additional property 'id'"],
    ['{"petId":2}', "body must NOT have additional property 'petId'"],
    ['{"quantity":2}', "body must NOT have additional property 'quantity'"],
    ['[]', 'body must be object'],
    ['null', 'body must be object'],
    ['"complete"', 'body must be object']
  ]
  for (const [payload, message] of cases) {
    const res = await patch(app, 1, payload)
    t.equal(res.statusCode, 400, payload)
    t.equal(res.headers['content-type'], JSON_TYPE, payload)
    t.equal(res.headers['api-stability'], 'experimental', payload)
    t.same(res.json(), errorBody('invalid_request', message, 400), payload)
  }
  const notJson = await patch(app, 1, '{"complete":')
  t.equal(notJson.statusCode, 400)
  t.equal(notJson.json().code, 'invalid_json')
  const noType = await patch(app, 1, '{"complete":true}', AUTH)
  t.equal(noType.statusCode, 400)
  t.same(noType.json(), errorBody('unsupported_media_type', 'Content-Type must be application/merge-patch+json or application/json', 400))
  const text = await patch(app, 1, '{"complete":true}', { ...AUTH, 'content-type': 'text/plain' })
  t.same(text.json(), errorBody('unsupported_media_type', 'Content-Type must be application/merge-patch+json or application/json', 400))
  t.equal((await app.inject({ url: `${ORDERS}/1`, headers: AUTH })).body, orderBody({ id: 1, petId: 1, quantity: 1, complete: false }), 'unchanged')
  t.equal((await app.inject({ url: '/v1/pets/1', headers: AUTH })).json().status, 'pending')
})

t.test('updateOrder answers 404 for an unknown or cancelled order, 400 for a malformed id', async (t) => {
  const app = await build(t)
  await ordersFor(app, 1)
  await app.inject({ method: 'DELETE', url: `${ORDERS}/1`, headers: AUTH })
  const cases: Array<[string, number, object]> = [
    ['1', 404, errorBody('not_found', 'Order 1 not found', 404)],
    ['9223372036854775807', 404, errorBody('not_found', 'Order 9223372036854775807 not found', 404)],
    ['0', 400, errorBody('invalid_request', 'params/orderId must be >= 1', 400)],
    ['x', 400, errorBody('invalid_request', 'params/orderId must be integer', 400)]
  ]
  for (const [id, status, body] of cases) {
    const res = await patch(app, id, '{"complete":true}')
    t.equal(res.statusCode, status, id)
    t.equal(res.headers['api-stability'], 'experimental', id)
    t.same(res.json(), body, id)
  }
  t.equal(await rowCount(app, 'orders'), 0)
  t.equal((await app.inject({ url: '/v1/pets/1', headers: AUTH })).json().status, 'available', 'nothing sold')
})

t.test('10 concurrent patches completing one order: each 200 with the complete order; the pet sold once', async (t) => {
  const app = await build(t)
  await ordersFor(app, 1)
  const responses = await Promise.all(Array.from({ length: 10 }, () => patch(app, 1, '{"complete":true}')))
  t.same(responses.map((res) => res.statusCode), Array(10).fill(200))
  for (const res of responses) t.equal(res.body, orderBody({ id: 1, petId: 1, quantity: 1, complete: true }))
  t.equal((await app.inject({ url: '/v1/pets/1', headers: AUTH })).json().status, 'sold')
})

t.test('a cancel and a completion racing: one wins, and the pet ends as the winner says', async (t) => {
  const app = await build(t)
  await ordersFor(app, 1)
  const [cancelled, completed] = await Promise.all([
    app.inject({ method: 'DELETE', url: `${ORDERS}/1`, headers: AUTH }),
    patch(app, 1, '{"complete":true}')
  ])
  const pet = (await app.inject({ url: '/v1/pets/1', headers: AUTH })).json().status
  if (cancelled.statusCode === 204) {
    t.equal(completed.statusCode, 404)
    t.same(completed.json(), errorBody('not_found', 'Order 1 not found', 404))
    t.equal(pet, 'available')
  } else {
    t.equal(cancelled.statusCode, 409)
    t.equal(completed.statusCode, 200)
    t.equal(pet, 'sold')
  }
})
