/**
 * Schema-driven fuzzing of the store-order operations (see ./harness.ts for what every
 * answer must satisfy). Valid orders for existing pets are placed once, exactly as sent with
 * the document's defaults; orders for missing pets and invalid bodies change nothing; any
 * order id answers 204, 404 or 409 and any other id 400.
 */
import fc from 'fast-check'
import { sql } from 'kysely'
import t from 'tap'
import { encodeCursor } from '../../src/contract/paging.ts'
import { invalidObject, valid, type Schema } from './arbitraries.ts'
import { AUTH, JSON_HEADERS } from '../helpers/app.ts'
import { orderBody } from '../helpers/answers.ts'
import { caseCount, json, makeApp, numRuns, schemaOf, seed, send, timeoutMs, walk } from './harness.ts'
import { addPets, rowCount } from '../helpers/store.ts'

const newOrder = schemaOf('placeOrder').body!
const listQuery = schemaOf('listOrders').querystring!
const orderIdSchema = schemaOf('cancelOrder').params!.properties.orderId as Schema
const ORDERS = '/v1/store/orders'

t.setTimeout(timeoutMs)

/** What the service answers for a valid order: the document's defaults filled in. */
function expectedOrder (id: unknown, sent: Record<string, unknown>): string {
  const defaults = Object.fromEntries(Object.entries(newOrder.properties as Record<string, Schema>)
    .filter(([, schema]) => schema.default !== undefined).map(([name, schema]) => [name, schema.default]))
  return orderBody({ id, ...defaults, ...sent })
}

t.test('placeOrder: valid orders for existing pets are placed once, as sent; others name petId', async (t) => {
  const app = await makeApp(t)
  const pets = await addPets(app, 3)
  const placed: number[] = []
  const order = fc.tuple(valid(newOrder), fc.option(fc.constantFrom(...pets), { nil: undefined, freq: 4 }))
    .map(([body, petId]) => petId === undefined ? body as Record<string, unknown> : { ...body as object, petId })
  await fc.assert(fc.asyncProperty(order, async (body) => {
    const exists = pets.includes(body.petId as number)
    const before = await rowCount(app, 'orders')
    // An order takes its pet off sale: the pets are put back on sale before each case.
    await sql`update pets set status = 'available'`.execute(app.db)
    const response = await send(app, 'placeOrder', { method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: json(body) })
    if (!exists) {
      if (response.statusCode !== 400 || !JSON.parse(response.body).message.startsWith('body/petId ')) throw new Error(`missing pet: ${response.statusCode} ${response.body}`)
      if (await rowCount(app, 'orders') !== before) throw new Error('an order for a missing pet was stored')
      return
    }
    if (response.statusCode !== 201) throw new Error(`expected 201, got ${response.statusCode}: ${response.body}`)
    const id = JSON.parse(response.body).id
    if (response.body !== expectedOrder(id, body)) throw new Error(`echo differs: sent ${json(body)}, got ${response.body}`)
    placed.push(id)
  }), { seed, numRuns })
  t.same((await walk(app, 'listOrders', `${ORDERS}?limit=100`)).map((item) => item.id), placed, `${placed.length} orders, each listed once in order`)
})

t.test('placeOrder: invalid bodies get a 4xx Error and change nothing', async (t) => {
  const app = await makeApp(t)
  await addPets(app, 1)
  const bodies = fc.oneof(
    invalidObject(newOrder).map(json),
    fc.constantFrom('', '{', '{"petId":1,"petId":2}', '{"petId":1e400}', '{"petId":1,"quantity":1e400}', '{"petId":1,"complete":1}', '{"petId":1,"shipDate":null}')
  )
  await fc.assert(fc.asyncProperty(bodies, async (payload) => {
    const before = await rowCount(app, 'orders')
    const response = await send(app, 'placeOrder', { method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload })
    if (response.statusCode !== 400 && response.statusCode !== 413) throw new Error(`expected 400 or 413, got ${response.statusCode} for ${payload.slice(0, 200)}`)
    if (await rowCount(app, 'orders') !== before) throw new Error(`an invalid body changed the database: ${payload.slice(0, 200)}`)
  }), { seed, numRuns })
})

t.test('listOrders: valid queries answer pages in id order within the limit', async (t) => {
  const app = await makeApp(t)
  const [pet] = await addPets(app, 1)
  for (let i = 0; i < 30; i++) await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: pet } })
  const query = fc.record({
    limit: valid(listQuery.properties.limit),
    cursor: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.bigInt({ min: 1n, max: 2n ** 63n - 1n })).map(encodeCursor)
  }, { requiredKeys: [] })
  await fc.assert(fc.asyncProperty(query, async (params) => {
    const search = new URLSearchParams(Object.entries(params).map(([name, value]): [string, string] => [name, String(value)]))
    const response = await send(app, 'listOrders', { url: `${ORDERS}?${search.toString()}`, headers: AUTH })
    if (response.statusCode !== 200) throw new Error(`expected 200, got ${response.statusCode}: ${response.body}`)
    const orders = JSON.parse(response.body) as Array<{ id: number }>
    if (orders.length > ((params.limit as number | undefined) ?? 20)) throw new Error(`${orders.length} orders for limit ${String(params.limit)}`)
    if (orders.some((order, i) => i > 0 && order.id <= orders[i - 1]!.id)) throw new Error('not in ascending id order')
  }), { seed, numRuns })
})

t.test('cancelOrder: any int64 id answers 204, 404 or 409; anything else 400', async (t) => {
  const app = await makeApp(t)
  // A pet is one animal: one order each.
  const pets = await addPets(app, 10, { statuses: ['available'] })
  for (let i = 0; i < 10; i++) await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: pets[i], complete: i % 2 === 0 } })
  const id = fc.oneof(
    fc.integer({ min: 1, max: 12 }).map((value) => ({ text: String(value), valid: true })),
    valid(orderIdSchema).map((value) => ({ text: String(value), valid: true })),
    fc.constantFrom('0', '-1', '1.5', 'abc', '9223372036854775808', '1e3', '0x10', '%20').map((text) => ({ text, valid: false }))
  )
  await fc.assert(fc.asyncProperty(id, async ({ text, valid: isValid }) => {
    const response = await send(app, 'cancelOrder', { method: 'DELETE', url: `${ORDERS}/${text}`, headers: AUTH })
    const expected = isValid ? [204, 404, 409] : [400]
    if (!expected.includes(response.statusCode)) throw new Error(`orderId ${text}: expected ${expected.join(' or ')}, got ${response.statusCode}`)
    if (response.headers['api-stability'] !== 'beta') throw new Error(`orderId ${text}: no API-Stability header`)
  }), { seed, numRuns })
  const left = (await walk(app, 'listOrders', `${ORDERS}?limit=100`)).map((item) => item.id)
  t.same(left, [1, 3, 5, 7, 9], 'only complete orders survive')
  t.comment(`${caseCount()} fuzz cases in this file`)
})
