/**
 * Schema-driven fuzzing of the store-order operations (see ./harness.ts for what every
 * answer must satisfy). Valid orders for existing pets are placed once, exactly as sent with
 * the document's defaults; orders for missing pets and invalid bodies change nothing; any
 * order id answers 204, 404 or 409 and any other id 400.
 */
import fc from 'fast-check'
import { sql } from 'kysely'
import t from 'tap'
import { apiDocument } from '../../src/contract/document.ts'
import { encodeCursor } from '../../src/contract/paging.ts'
import { invalidBody, valid, type Schema } from './arbitraries.ts'
import { AUTH, JSON_HEADERS } from '../helpers/app.ts'
import { orderBody } from '../helpers/answers.ts'
import { caseCount, json, makeApp, numRuns, pageProblems, seed, send, sendRequest, timeoutMs, unrouted, walk } from './harness.ts'
import { inputsOf, mutatedRequest, validRequest } from './requests.ts'
import { addPets, rowCount } from '../helpers/store.ts'

const bodies = inputsOf(apiDocument, 'placeOrder').bodies
const ORDERS = '/v1/store/orders'
/** A fresh key when one is sent, so no two orders share one (./operations.test.ts sends the schema's own keys). */
const freshKey = fc.option(fc.uuid(), { nil: undefined })

t.setTimeout(timeoutMs)

/** What the service answers for a valid order: the document's defaults filled in. */
function expectedOrder (id: unknown, sent: Record<string, unknown>, schema: Schema): string {
  const defaults = Object.fromEntries(Object.entries(schema.properties as Record<string, Schema>)
    .filter(([, schema]) => schema.default !== undefined).map(([name, schema]) => [name, schema.default]))
  return orderBody({ id, ...defaults, ...sent })
}

t.test('placeOrder: valid orders for existing pets are placed once, as sent; others name petId', async (t) => {
  const app = await makeApp(t)
  const pets = await addPets(app, 3)
  const placed: number[] = []
  // Mostly orders for pets that exist; the rest name the schema's own petIds.
  const order = (schema: Schema) => fc.tuple(valid(schema), fc.option(fc.constantFrom(...pets), { nil: undefined, freq: 4 }))
    .map(([body, petId]) => petId === undefined ? body : { ...body as object, petId })
  const requests = validRequest(apiDocument, 'placeOrder', { body: order, parameters: { 'idempotency-key': freshKey } })
  await fc.assert(fc.asyncProperty(requests, async (request) => {
    const body = request.body!.value as Record<string, unknown>
    const exists = pets.includes(body.petId as number)
    const before = await rowCount(app, 'orders')
    // An order takes its pet off sale: the pets are put back on sale before each case.
    await sql`update pets set status = 'available'`.execute(app.db)
    const response = await sendRequest(app, request)
    if (!exists) {
      if (response.statusCode !== 400 || !JSON.parse(response.body).message.startsWith('body/petId ')) throw new Error(`missing pet: ${response.statusCode} ${response.body}`)
      if (await rowCount(app, 'orders') !== before) throw new Error('an order for a missing pet was stored')
      return
    }
    if (response.statusCode !== 201) throw new Error(`expected 201, got ${response.statusCode}: ${response.body}`)
    const id = JSON.parse(response.body).id
    if (response.body !== expectedOrder(id, body, bodies.find(({ mediaType }) => mediaType === request.body!.mediaType)!.schema)) throw new Error(`echo differs: sent ${json(body)}, got ${response.body}`)
    placed.push(id)
  }), { seed, numRuns })
  t.same((await walk(app, 'listOrders', `${ORDERS}?limit=100`)).map((item) => item.id), placed, `${placed.length} orders, each listed once in order`)
})

t.test('placeOrder: invalid bodies get a 4xx Error and change nothing', async (t) => {
  const app = await makeApp(t)
  await addPets(app, 1)
  // Under each declared media type: derived from its schema, or not JSON at all.
  const broken = fc.oneof(...bodies.map(({ mediaType, schema }) => fc.oneof(
    invalidBody(schema).map(json),
    fc.constantFrom('', '{', '{"petId":1,"petId":2}', '{"petId":1e400}', '{"petId":1,"quantity":1e400}', '{"petId":1,"complete":1}', '{"petId":1,"shipDate":null}')
  ).map((payload) => ({ mediaType, payload }))))
  await fc.assert(fc.asyncProperty(broken, async ({ mediaType, payload }) => {
    const before = await rowCount(app, 'orders')
    const response = await send(app, 'placeOrder', { method: 'POST', url: ORDERS, headers: { ...AUTH, 'content-type': mediaType }, payload })
    if (response.statusCode !== 400 && response.statusCode !== 413) throw new Error(`expected 400 or 413, got ${response.statusCode} for ${payload.slice(0, 200)}`)
    if (await rowCount(app, 'orders') !== before) throw new Error(`an invalid body changed the database: ${payload.slice(0, 200)}`)
  }), { seed, numRuns })
})

t.test('listOrders: valid queries answer pages in id order within the limit', async (t) => {
  const app = await makeApp(t)
  const [pet] = await addPets(app, 1)
  for (let i = 0; i < 30; i++) await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: pet } })
  // Every declared query parameter from its schema, but cursors the service could have made.
  const cursor = fc.oneof(fc.integer({ min: 1, max: 40 }), fc.bigInt({ min: 1n, max: 2n ** 63n - 1n })).map(encodeCursor)
  const requests = validRequest(apiDocument, 'listOrders', { parameters: { cursor: fc.option(cursor, { nil: undefined }) } })
  await fc.assert(fc.asyncProperty(requests, async (request) => {
    const response = await sendRequest(app, request)
    // `If-None-Match: *` matches any answer.
    if (response.statusCode === 304 && request.headers['if-none-match'] !== undefined) return
    if (response.statusCode !== 200) throw new Error(`expected 200, got ${response.statusCode} for ${request.url}: ${response.body}`)
    const problems = pageProblems(request, response)
    if (problems.length > 0) throw new Error(`${request.url}: ${problems.join('; ')}`)
  }), { seed, numRuns })
})

t.test('cancelOrder: any int64 id answers 204, 404 or 409; anything else 400', async (t) => {
  const app = await makeApp(t)
  // A pet is one animal: one order each.
  const pets = await addPets(app, 10, { statuses: ['available'] })
  for (let i = 0; i < 10; i++) await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: pets[i], complete: i % 2 === 0 } })
  // The schema's ids, and ids that exist.
  const orderId = fc.oneof(fc.integer({ min: 1, max: 12 }), valid(inputsOf(apiDocument, 'cancelOrder').parameters.find((parameter) => parameter.name === 'orderId')!.schema))
  const requests = fc.oneof(
    validRequest(apiDocument, 'cancelOrder', { parameters: { orderId } }).map((request) => ({ request, expected: [204, 404, 409] })),
    mutatedRequest(apiDocument, 'cancelOrder').map((request) => ({ request, expected: [400] }))
  )
  await fc.assert(fc.asyncProperty(requests, async ({ request, expected }) => {
    const response = await sendRequest(app, request)
    if (!expected.includes(response.statusCode)) throw new Error(`${request.url}: expected ${expected.join(' or ')}, got ${response.statusCode}`)
    // A path that decodes to no UTF-8 is refused by the router, before it knows the operation.
    if (unrouted(response)) return
    if (response.headers['api-stability'] !== 'beta') throw new Error(`${request.url}: no API-Stability header`)
  }), { seed, numRuns })
  const left = (await walk(app, 'listOrders', `${ORDERS}?limit=100`)).map((item) => item.id)
  t.same(left, [1, 3, 5, 7, 9], 'only complete orders survive')
  t.comment(`${caseCount()} fuzz cases in this file`)
})
