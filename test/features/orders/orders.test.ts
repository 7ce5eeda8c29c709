/**
 * The store-order operations, on whichever database this run tests (see test/helpers/app.ts):
 * whole bodies and the headers that matter, every error, and concurrency.
 */
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { errorBody } from '../../helpers/answers.ts'
import { NOT_DECIMAL_DIGITS } from '../../helpers/inputs.ts'
import { addPets, rowCount, walkPages } from '../../helpers/store.ts'

const ORDERS = '/v1/store/orders'

async function placeOrder (app: FastifyInstance, order: object) {
  const res = await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: order })
  if (res.statusCode !== 201) throw new Error(res.body)
  return res.json() as { id: number }
}

t.test('placeOrder answers 201 with the order, defaults applied, marked experimental', async (t) => {
  const app = await build(t)
  await addPets(app, 3, { statuses: ['available'] })
  const res = await app.inject({ method: 'POST', url: ORDERS, headers: { ...JSON_HEADERS, 'x-request-id': 'order-1' }, payload: { petId: 2 } })
  t.equal(res.statusCode, 201)
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(res.headers['api-stability'], 'experimental')
  t.equal(res.headers['x-request-id'], 'order-1')
  t.equal(res.headers['ratelimit-limit'], '1000')
  t.equal(res.body, '{"id":1,"petId":2,"quantity":1,"complete":false}', 'no shipDate key when none was given')

  const full = await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: '{"complete":true,"shipDate":"2026-12-01T10:00:00.123+02:00","quantity":1000,"petId":1}' })
  t.equal(full.statusCode, 201)
  t.equal(full.body, '{"id":2,"petId":1,"quantity":1000,"complete":true,"shipDate":"2026-12-01T10:00:00.123+02:00"}', 'shipDate comes back as sent')
  // A leap second is an RFC 3339 time like any other: kept as sent, never read as a Date.
  const leap = await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: '{"petId":3,"shipDate":"2026-12-31T23:59:60Z"}' })
  t.equal(leap.body, '{"id":3,"petId":3,"quantity":1,"complete":false,"shipDate":"2026-12-31T23:59:60Z"}', 'a leap second too')
  t.equal((await app.inject({ url: `${ORDERS}/3`, headers: AUTH })).body, leap.body, 'and read back as sent')
})

t.test('placeOrder keeps a petId beyond 2^53 exact', async (t) => {
  const app = await build(t)
  await sql`insert into pets (id, name, category_id, status) values (${9007199254740993n}, 'Big', 1, 'available')`.execute(app.db)
  const res = await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: '{"petId":9007199254740993}' })
  t.equal(res.statusCode, 201)
  t.equal(res.body, '{"id":1,"petId":9007199254740993,"quantity":1,"complete":false}')
  const listed = await app.inject({ url: ORDERS, headers: AUTH })
  t.equal(listed.body, '[{"id":1,"petId":9007199254740993,"quantity":1,"complete":false}]')
})

t.test('placeOrder refuses bad bodies with 400 naming the field, and stores nothing', async (t) => {
  const app = await build(t)
  await addPets(app, 1)
  const cases: Array<[string, string]> = [
    ['{"petId":42}', 'body/petId must name an existing pet; there is no pet 42'],
    ['{"petId":9223372036854775807}', 'body/petId must name an existing pet; there is no pet 9223372036854775807'],
    ['{"petId":9223372036854775808}', 'body/petId must be <= 9223372036854775807'],
    ['{"petId":0}', 'body/petId must be >= 1'],
    ['{"petId":"1"}', 'body/petId must be integer'],
    ['{}', "body must have required property 'petId'"],
    ['{"petId":1,"quantity":0}', 'body/quantity must be >= 1'],
    ['{"petId":1,"quantity":1001}', 'body/quantity must be <= 1000'],
    ['{"petId":1,"quantity":1.5}', 'body/quantity must be integer'],
    ['{"petId":1,"shipDate":"tomorrow"}', 'body/shipDate must match format "date-time"'],
    ['{"petId":1,"shipDate":"2026-02-30T10:00:00Z"}', 'body/shipDate must match format "date-time"'],
    ['{"petId":1,"complete":"yes"}', 'body/complete must be boolean'],
    ['{"petId":1,"id":5}', "body must NOT have additional property 'id'"],
    ['{"petId":1,"status":"placed"}', "body must NOT have additional property 'status'"],
    ['[{"petId":1}]', 'body must be object']
  ]
  for (const [payload, message] of cases) {
    const res = await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload })
    t.equal(res.statusCode, 400, payload)
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8', payload)
    t.equal(res.headers['api-stability'], 'experimental', payload)
    t.same(res.json(), errorBody('invalid_request', message, 400), payload)
  }
  const notJson = await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: '{"petId":' })
  t.same(notJson.json(), errorBody('invalid_json', 'Body is not valid JSON: Object value expected after \':\' at position 9', 400))
  const noType = await app.inject({ method: 'POST', url: ORDERS, headers: AUTH, payload: '{"petId":1}' })
  t.same(noType.json(), errorBody('unsupported_media_type', 'Content-Type must be application/json', 400))
  t.equal(await rowCount(app, 'orders'), 0, 'nothing was stored')
})

t.test('listOrders pages with limit, cursor and Link, like listPets', async (t) => {
  const app = await build(t)
  const empty = await app.inject({ url: ORDERS, headers: AUTH })
  t.equal(empty.statusCode, 200)
  t.equal(empty.headers['api-stability'], 'experimental')
  t.equal(empty.body, '[]')
  t.equal(empty.headers.link, undefined)

  // A pet is one animal: one order each.
  await addPets(app, 5, { statuses: ['available'] })
  for (let i = 0; i < 5; i++) await placeOrder(app, { petId: i + 1, quantity: i + 1 })
  const first = await app.inject({ url: `${ORDERS}?limit=2`, headers: AUTH })
  t.equal(first.body, '[{"id":1,"petId":1,"quantity":1,"complete":false},{"id":2,"petId":2,"quantity":2,"complete":false}]')
  t.equal(first.headers.link, '</v1/store/orders?limit=2&cursor=Mg>; rel="next"')
  const pages = await walkPages(app, `${ORDERS}?limit=2`)
  const ids = pages.flatMap((page) => page.json().map((order: { id: number }) => order.id))
  t.same(ids, [1, 2, 3, 4, 5], 'every order once, in order, over three pages')
  t.equal((await app.inject({ url: ORDERS, headers: AUTH })).json().length, 5, 'the default limit is 20')
})

t.test('listOrders refuses bad parameters with 400 naming them', async (t) => {
  const app = await build(t)
  const cases: Array<[string, string]> = [
    ['limit=0', 'querystring/limit must be >= 1'],
    ['limit=101', 'querystring/limit must be <= 100'],
    ['limit=x', 'querystring/limit must be integer'],
    ['limit=', 'querystring/limit must be integer'],
    ...NOT_DECIMAL_DIGITS.map((text): [string, string] => [`limit=${text}`, 'querystring/limit must be integer']),
    ['limit=-5', 'querystring/limit must be >= 1'],
    ['status=sold', "querystring must NOT have additional property 'status'"],
    ['cursor=MA', 'querystring/cursor is malformed: pass back the cursor of a Link header unchanged']
  ]
  for (const [query, message] of cases) {
    const res = await app.inject({ url: `${ORDERS}?${query}`, headers: AUTH })
    t.equal(res.statusCode, 400, query)
    t.equal(res.headers['api-stability'], 'experimental', query)
    t.same(res.json(), errorBody('invalid_request', message, 400), query)
  }
})

t.test('listOrders takes a limit of decimal digits', async (t) => {
  const app = await build(t)
  await addPets(app, 6, { statuses: ['available'] })
  for (let i = 0; i < 6; i++) await placeOrder(app, { petId: i + 1 })
  for (const [limit, count] of [['5', 5], ['100', 6]] as const) {
    const res = await app.inject({ url: `${ORDERS}?limit=${limit}`, headers: AUTH })
    t.equal(res.statusCode, 200, limit)
    t.equal(res.json().length, count, limit)
  }
})

t.test('cancelOrder answers 204, and the order is gone; marked beta', async (t) => {
  const app = await build(t)
  await addPets(app, 2, { statuses: ['available'] })
  await placeOrder(app, { petId: 1 })
  await placeOrder(app, { petId: 2 })
  const res = await app.inject({ method: 'DELETE', url: `${ORDERS}/1`, headers: AUTH })
  t.equal(res.statusCode, 204)
  t.equal(res.body, '')
  t.equal(res.headers['api-stability'], 'beta')
  t.equal(res.headers['content-type'], undefined)
  const listed = await app.inject({ url: ORDERS, headers: AUTH })
  t.equal(listed.body, '[{"id":2,"petId":2,"quantity":1,"complete":false}]', 'no longer listed')
  const again = await app.inject({ method: 'DELETE', url: `${ORDERS}/1`, headers: AUTH })
  t.equal(again.statusCode, 404)
  t.equal(again.headers['api-stability'], 'beta')
  t.same(again.json(), errorBody('not_found', 'Order 1 not found', 404))
  const next = await placeOrder(app, { petId: 1 })
  t.equal(next.id, 3, 'a cancelled order\'s id is never handed out again (and its pet is for sale again)')
})

t.test('cancelOrder refuses a complete order with 409 and keeps it', async (t) => {
  const app = await build(t)
  await addPets(app, 1, { statuses: ['available'] })
  await placeOrder(app, { petId: 1, complete: true })
  const res = await app.inject({ method: 'DELETE', url: `${ORDERS}/1`, headers: AUTH })
  t.equal(res.statusCode, 409)
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(res.headers['api-stability'], 'beta')
  t.same(res.json(), errorBody('conflict', 'Order 1 is complete (shipped) and can no longer be cancelled', 409))
  t.equal(await rowCount(app, 'orders'), 1)
})

t.test('cancelOrder refuses a malformed id with 400, an unknown one with 404', async (t) => {
  const app = await build(t)
  const cases: Array<[string, number, object]> = [
    ['0', 400, errorBody('invalid_request', 'params/orderId must be >= 1', 400)],
    ['abc', 400, errorBody('invalid_request', 'params/orderId must be integer', 400)],
    ['1e3', 400, errorBody('invalid_request', 'params/orderId must be integer', 400)],
    ...NOT_DECIMAL_DIGITS.map((text): [string, number, object] => [text, 400, errorBody('invalid_request', 'params/orderId must be integer', 400)]),
    ['9223372036854775808', 400, errorBody('invalid_request', 'params/orderId must be <= 9223372036854775807', 400)],
    ['9223372036854775807', 404, errorBody('not_found', 'Order 9223372036854775807 not found', 404)]
  ]
  for (const [id, status, body] of cases) {
    const res = await app.inject({ method: 'DELETE', url: `${ORDERS}/${id}`, headers: AUTH })
    t.equal(res.statusCode, status, id)
    t.equal(res.headers['api-stability'], 'beta', id)
    t.same(res.json(), body, id)
  }
})

t.test('every order operation needs a key, and says its stability on the 401 too', async (t) => {
  const app = await build(t)
  const operations = [['GET', ORDERS, 'experimental'], ['POST', ORDERS, 'experimental'], ['GET', `${ORDERS}/1`, 'experimental'], ['PATCH', `${ORDERS}/1`, 'experimental'], ['DELETE', `${ORDERS}/1`, 'beta']] as const
  for (const [method, url, level] of operations) {
    const res = await app.inject({ method, url, headers: { authorization: 'Bearer wrong-key' } })
    t.equal(res.statusCode, 401, `${method} ${url}`)
    t.equal(res.headers['www-authenticate'], 'Bearer realm="petstore", error="invalid_token"')
    t.equal(res.headers['api-stability'], level)
    t.same(res.json(), errorBody('unauthorized', 'Invalid API key', 401))
  }
})

t.test('methods the order paths do not serve answer 405 with Allow', async (t) => {
  const app = await build(t)
  const cases: Array<[string, string, string]> = [
    ['PUT', ORDERS, 'GET, HEAD, POST'],
    ['DELETE', ORDERS, 'GET, HEAD, POST'],
    ['PUT', `${ORDERS}/1`, 'DELETE, GET, HEAD, PATCH'],
    ['POST', `${ORDERS}/1`, 'DELETE, GET, HEAD, PATCH']
  ]
  for (const [method, url, allow] of cases) {
    const res = await app.inject({ method: method as 'GET', url, headers: AUTH })
    t.equal(res.statusCode, 405, `${method} ${url}`)
    t.equal(res.headers.allow, allow)
    t.equal(res.json().code, 'method_not_allowed')
  }
})

t.test('40 orders placed at once, for 40 pets, get 40 distinct ids', async (t) => {
  const app = await build(t)
  await addPets(app, 40, { statuses: ['available'] })
  const responses = await Promise.all(Array.from({ length: 40 }, (_, i) =>
    app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: i + 1 } })))
  t.same(responses.map((res) => res.statusCode), Array(40).fill(201))
  t.equal(new Set(responses.map((res) => res.json().id)).size, 40)
  t.equal(await rowCount(app, 'orders'), 40)
})

t.test('10 concurrent cancels of one order: exactly one 204, the rest 404', async (t) => {
  const app = await build(t)
  await addPets(app, 1, { statuses: ['available'] })
  const { id } = await placeOrder(app, { petId: 1 })
  const responses = await Promise.all(Array.from({ length: 10 }, () =>
    app.inject({ method: 'DELETE', url: `${ORDERS}/${id}`, headers: AUTH })))
  const statuses = responses.map((res) => res.statusCode).sort()
  t.same(statuses, [204, ...Array(9).fill(404)])
  t.equal(await rowCount(app, 'orders'), 0)
})
