/**
 * Schema-driven fuzzing of the pet operations and of any request at all: requests built
 * from each operation's own declaration in the OpenAPI document (./requests.ts), valid and
 * mutated, against the whole app. For every answer: no 5xx, the status is declared, the body
 * and headers match the document (./harness.ts). Valid creates are listed exactly once;
 * invalid requests change nothing. ./operations.test.ts fuzzes every operation alike.
 */
import fc from 'fast-check'
import { LosslessNumber } from 'lossless-json'
import t from 'tap'
import { apiDocument } from '../../src/contract/document.ts'
import { encodeCursor } from '../../src/contract/paging.ts'
import { invalidBody, valid } from './arbitraries.ts'
import { AUTH, JSON_HEADERS, TEST_KEY } from '../helpers/app.ts'
import { petBody } from '../helpers/answers.ts'
import { caseCount, json, makeApp, numRuns, pageProblems, seed, send, sendRequest, timeoutMs, unrouted, walk } from './harness.ts'
import { inputsOf, mutatedRequest, validRequest } from './requests.ts'
import { addPets, rowCount } from '../helpers/store.ts'

const bodies = inputsOf(apiDocument, 'createPet').bodies
const newPet = bodies[0]!.schema
const petCount = (app: Parameters<typeof rowCount>[0]) => rowCount(app, 'pets')
/** A fresh key when one is sent, so no two creates share one (./operations.test.ts sends the schema's own keys). */
const freshKey = fc.option(fc.uuid(), { nil: undefined })

t.setTimeout(timeoutMs)

t.comment(`fuzz seed ${seed}, ${numRuns} runs per property (replay with FUZZ_SEED=${seed})`)

t.test('createPet: valid bodies are created once, exactly as sent', async (t) => {
  const app = await makeApp(t)
  const created: Array<number | bigint> = []
  await fc.assert(fc.asyncProperty(validRequest(apiDocument, 'createPet', { parameters: { 'idempotency-key': freshKey } }), async (request) => {
    const pet = request.body!.value
    const response = await sendRequest(app, request)
    if (response.statusCode !== 201) throw new Error(`expected 201, got ${response.statusCode}: ${response.body}`)
    const body = JSON.parse(response.body)
    const echoed = petBody({ id: body.id, ...(pet as object) })
    if (response.body !== echoed) throw new Error(`echo differs: sent ${json({ id: body.id, ...(pet as object) })}, got ${response.body}`)
    created.push(body.id)
  }), { seed, numRuns })

  // Every created pet is listed exactly once, in id order, across all pages.
  const seen = (await walk(app, 'listPets', '/v1/pets?limit=100')).map((pet) => pet.id)
  t.same(seen, created, `${created.length} pets, each listed once in order`)
})

/** Broken bodies under each declared media type: derived from its schema, or not JSON at all. */
const badBodies = fc.oneof(...bodies.map(({ mediaType, schema }) => fc.oneof(
  invalidBody(schema).map(json),
  fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.array(valid(schema), { maxLength: 2 })).map(json),
  fc.constantFrom('', '{', '{"name":"Rex","categoryId":1', '{"name":"Rex","name":"Rex","categoryId":1}', 'NaN', '{"name":"Rex","categoryId":01}',
    '{"name":"Rex","categoryId":1}x', '\u0000', '{"name":"\\ud800","categoryId":1}', '{"name":"Rex","categoryId":1e400}',
    '{"name":"Rex","categoryId":9007199254740993.0}', '{"name":"Rex","categoryId":-0.0}'),
  fc.constant(json({ name: 'x'.repeat(1024 * 1024), categoryId: 1 })),
  fc.tuple(valid(schema), fc.constantFrom('1E3', '1.0e0', '-1', '0.5', '9223372036854775808', '18446744073709551616'))
    .map(([pet, raw]) => json({ ...(pet as object), categoryId: new LosslessNumber(raw) }))
).map((payload) => ({ mediaType, payload }))))

t.test('createPet: invalid bodies get a 4xx Error and change nothing', async (t) => {
  const app = await makeApp(t)
  await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'seed', categoryId: 1 } })
  await fc.assert(fc.asyncProperty(badBodies, async ({ mediaType, payload }) => {
    const before = await petCount(app)
    const response = await send(app, 'createPet', { method: 'POST', url: '/v1/pets', headers: { ...AUTH, 'content-type': mediaType }, payload })
    // A few mutations are still valid (1.0e0 is the integer 1): those must create.
    if (response.statusCode === 201) return
    if (response.statusCode !== 400 && response.statusCode !== 413) throw new Error(`expected 400 or 413, got ${response.statusCode}`)
    if (await petCount(app) !== before) throw new Error(`an invalid body changed the database: ${payload.slice(0, 200)}`)
  }), { seed, numRuns })
})

t.test('createPet with an Idempotency-Key: any valid key and body, sent twice, makes one pet and one answer', async (t) => {
  const app = await makeApp(t)
  const keyed = validRequest(apiDocument, 'createPet').filter((request) => request.headers['idempotency-key'] !== undefined)
  await fc.assert(fc.asyncProperty(keyed, async (request) => {
    const before = await petCount(app)
    const first = await sendRequest(app, request)
    const retry = await sendRequest(app, request)
    // A key the generator repeats with another body is a 422, which changes nothing.
    if (first.statusCode === 422) return
    if (first.statusCode !== 201 || retry.statusCode !== 201) throw new Error(`expected 201 twice, got ${first.statusCode}, ${retry.statusCode}: ${retry.body}`)
    if (retry.body !== first.body || retry.headers['idempotent-replayed'] !== 'true') throw new Error(`not replayed: ${first.body} then ${retry.body}`)
    if (await petCount(app) - before > 1) throw new Error('a retry made a second pet')
  }), { seed, numRuns })
})

t.test('createPet: wrong or missing headers get 400 or 401 and change nothing', async (t) => {
  const app = await makeApp(t)
  const headers = fc.record({
    authorization: fc.constantFrom(undefined, '', 'Bearer', `Basic ${TEST_KEY}`, `Bearer ${TEST_KEY}x`, `Token ${TEST_KEY}`, TEST_KEY, 'Bearer pst_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'),
    'content-type': fc.constantFrom(undefined, 'text/plain', 'application/xml', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/jsonx')
  }, { requiredKeys: [] })
  await fc.assert(fc.asyncProperty(headers, valid(newPet), async (sent, pet) => {
    const before = await petCount(app)
    const clean = Object.fromEntries(Object.entries(sent).filter(([, value]) => value !== undefined)) as Record<string, string>
    const response = await send(app, 'createPet', { method: 'POST', url: '/v1/pets', headers: clean, payload: json(pet) })
    if (response.statusCode !== 400 && response.statusCode !== 401) throw new Error(`expected 400 or 401, got ${response.statusCode}`)
    if (response.statusCode === 401 && response.headers['www-authenticate'] === undefined) throw new Error('401 without WWW-Authenticate')
    if (await petCount(app) !== before) throw new Error('a refused request changed the database')
  }), { seed, numRuns })
})

t.test('listPets: valid queries answer pages that keep every promise', async (t) => {
  const app = await makeApp(t)
  await addPets(app, 60, { statuses: ['available', 'pending', 'sold', undefined] })
  // Every declared query parameter from its schema, but cursors the service could have made.
  const cursor = fc.oneof(fc.integer({ min: 1, max: 70 }), fc.bigInt({ min: 1n, max: 2n ** 63n - 1n })).map(encodeCursor)
  const requests = validRequest(apiDocument, 'listPets', { parameters: { cursor: fc.option(cursor, { nil: undefined }) } })
  await fc.assert(fc.asyncProperty(requests, async (request) => {
    const response = await sendRequest(app, request)
    // `If-None-Match: *` matches any answer.
    if (response.statusCode === 304 && request.headers['if-none-match'] !== undefined) return
    if (response.statusCode !== 200) throw new Error(`expected 200, got ${response.statusCode} for ${request.url}: ${response.body}`)
    const problems = pageProblems(request, response)
    if (problems.length > 0) throw new Error(`${request.url}: ${problems.join('; ')}`)
  }), { seed, numRuns })
})

t.test('getPet: any int64 id answers 200 or 404, anything else 400, each with the deprecation headers', async (t) => {
  const app = await makeApp(t)
  await addPets(app, 5)
  // The schema's ids, and ids that exist.
  const petId = fc.oneof(fc.integer({ min: 1, max: 7 }), valid(inputsOf(apiDocument, 'getPet').parameters.find((parameter) => parameter.name === 'petId')!.schema))
  const requests = fc.oneof(
    validRequest(apiDocument, 'getPet', { parameters: { petId } }).map((request) => ({ request, expected: [200, 404, 304] })),
    mutatedRequest(apiDocument, 'getPet').map((request) => ({ request, expected: [400] }))
  )
  await fc.assert(fc.asyncProperty(requests, async ({ request, expected }) => {
    const response = await sendRequest(app, request)
    if (!expected.includes(response.statusCode)) throw new Error(`${request.url}: expected ${expected.join(' or ')}, got ${response.statusCode}`)
    // A path that decodes to no UTF-8 is refused by the router, before it knows the operation.
    if (unrouted(response)) return
    for (const header of ['deprecation', 'sunset', 'link']) {
      if (response.headers[header] === undefined) throw new Error(`${request.url}: no ${header} header`)
    }
  }), { seed, numRuns })
})

t.test('any method, path and headers: never a 5xx, always the Error body', async (t) => {
  const app = await makeApp(t)
  const request = fc.record({
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
    path: fc.oneof(fc.constantFrom('/v1/pets', '/v1/pets/1', '/v1/store/orders', '/v1/store/orders/1', '/v1/', '/v1', '/', '/docs', '/openapi.json', '/healthz'),
      fc.webPath().map((path) => `/v1${path}`), fc.webPath().map((path) => `/${path.replace(/^\//, '')}`)),
    authorization: fc.oneof(fc.constant(`Bearer ${TEST_KEY}`), fc.string({ maxLength: 40 }).filter((text) => /^[\t\x20-\x7e]*$/.test(text))),
    body: fc.option(fc.oneof(fc.string({ maxLength: 50 }), valid(newPet).map(json)), { nil: undefined })
  })
  await fc.assert(fc.asyncProperty(request, async ({ method, path, authorization, body }) => {
    await send(app, undefined, {
      method: method as 'GET',
      url: path,
      headers: { authorization, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && method !== 'GET' && method !== 'HEAD' && { payload: body })
    })
  }), { seed, numRuns })
  t.comment(`${caseCount()} fuzz cases in this file`)
})
