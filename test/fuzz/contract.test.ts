/**
 * Schema-driven fuzzing of the pet operations and of any request at all: requests built
 * from the OpenAPI document's own schemas, valid and mutated, against the whole app. For
 * every answer: no 5xx, the status is declared, the body and headers match the document
 * (./harness.ts). Valid creates are listed exactly once; invalid requests change nothing.
 */
import fc from 'fast-check'
import { LosslessNumber } from 'lossless-json'
import t from 'tap'
import { encodeCursor } from '../../src/contract/paging.ts'
import { invalidObject, invalidValue, valid, type Schema } from './arbitraries.ts'
import { AUTH, JSON_HEADERS, TEST_KEY } from '../helpers/app.ts'
import { petBody } from '../helpers/answers.ts'
import { caseCount, json, makeApp, numRuns, schemaOf, seed, send, timeoutMs, walk } from './harness.ts'
import { addPets, rowCount } from '../helpers/store.ts'

const newPet = schemaOf('createPet').body!
const listQuery = schemaOf('listPets').querystring!
const petIdSchema = schemaOf('getPet').params!.properties.petId as Schema
const petCount = (app: Parameters<typeof rowCount>[0]) => rowCount(app, 'pets')

t.setTimeout(timeoutMs)

t.comment(`fuzz seed ${seed}, ${numRuns} runs per property (replay with FUZZ_SEED=${seed})`)

t.test('createPet: valid bodies are created once, exactly as sent', async (t) => {
  const app = await makeApp(t)
  const created: Array<number | bigint> = []
  await fc.assert(fc.asyncProperty(valid(newPet), async (pet) => {
    const response = await send(app, 'createPet', { method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: json(pet) })
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

const badBodies = fc.oneof(
  invalidObject(newPet).map(json),
  fc.oneof(fc.constant(null), fc.integer(), fc.string(), fc.array(valid(newPet), { maxLength: 2 })).map(json),
  fc.constantFrom('', '{', '{"name":"Rex","categoryId":1', '{"name":"Rex","name":"Rex","categoryId":1}', 'NaN', '{"name":"Rex","categoryId":01}',
    '{"name":"Rex","categoryId":1}x', '\u0000', '{"name":"\\ud800","categoryId":1}', '{"name":"Rex","categoryId":1e400}',
    '{"name":"Rex","categoryId":9007199254740993.0}', '{"name":"Rex","categoryId":-0.0}'),
  fc.constant(json({ name: 'x'.repeat(1024 * 1024), categoryId: 1 })),
  fc.tuple(valid(newPet), fc.constantFrom('1E3', '1.0e0', '-1', '0.5', '9223372036854775808', '18446744073709551616'))
    .map(([pet, raw]) => json({ ...(pet as object), categoryId: new LosslessNumber(raw) }))
)

t.test('createPet: invalid bodies get a 4xx Error and change nothing', async (t) => {
  const app = await makeApp(t)
  await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'seed', categoryId: 1 } })
  await fc.assert(fc.asyncProperty(badBodies, async (payload) => {
    const before = await petCount(app)
    const response = await send(app, 'createPet', { method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload })
    // A few mutations are still valid (1.0e0 is the integer 1): those must create.
    if (response.statusCode === 201) return
    if (response.statusCode !== 400 && response.statusCode !== 413) throw new Error(`expected 400 or 413, got ${response.statusCode}`)
    if (await petCount(app) !== before) throw new Error(`an invalid body changed the database: ${payload.slice(0, 200)}`)
  }), { seed, numRuns })
})

const idempotencyKey = schemaOf('createPet').headers!.properties['idempotency-key'] as Schema

t.test('createPet with an Idempotency-Key: any valid key and body, sent twice, makes one pet and one answer', async (t) => {
  const app = await makeApp(t)
  await fc.assert(fc.asyncProperty(valid(idempotencyKey), valid(newPet), async (key, pet) => {
    const before = await petCount(app)
    const request = { method: 'POST' as const, url: '/v1/pets', headers: { ...JSON_HEADERS, 'idempotency-key': key as string }, payload: json(pet) }
    const first = await send(app, 'createPet', request)
    const retry = await send(app, 'createPet', request)
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
  const query = fc.record({
    limit: valid(listQuery.properties.limit),
    status: valid(listQuery.properties.status),
    cursor: fc.oneof(fc.integer({ min: 1, max: 70 }), fc.bigInt({ min: 1n, max: 2n ** 63n - 1n })).map(encodeCursor)
  }, { requiredKeys: [] })
  await fc.assert(fc.asyncProperty(query, async (params) => {
    const search = new URLSearchParams(Object.entries(params).map(([name, value]): [string, string] => [name, String(value)]))
    const response = await send(app, 'listPets', { url: `/v1/pets?${search.toString()}`, headers: AUTH })
    if (response.statusCode !== 200) throw new Error(`expected 200, got ${response.statusCode}: ${response.body}`)
    const pets = JSON.parse(response.body) as Array<{ id: number, status?: string }>
    const limit = (params.limit as number | undefined) ?? 20
    if (pets.length > limit) throw new Error(`${pets.length} pets for limit ${limit}`)
    if (pets.some((pet, i) => i > 0 && pet.id <= pets[i - 1]!.id)) throw new Error('not in ascending id order')
    if (params.status !== undefined && pets.some((pet) => pet.status !== params.status)) throw new Error('status filter not kept')
    const link = response.headers.link as string | undefined
    if (link !== undefined && (params.status !== undefined) !== link.includes(`status=${String(params.status)}`)) throw new Error(`Link drops the filter: ${link}`)
  }), { seed, numRuns })
})

t.test('listPets: invalid queries get 400 naming the parameter', async (t) => {
  const app = await makeApp(t)
  const names = Object.keys(listQuery.properties)
  const badValue = (name: string) => {
    const schema = listQuery.properties[name] as Schema
    if (schema.type === 'integer') {
      return fc.constantFrom(String(schema.minimum - 1), String(schema.maximum + 1), '1.5', 'abc', '', '-', '1_0', '99999999999999999999',
        // What Number() takes but is not decimal digits.
        'Infinity', '-Infinity', '1e400', '1e1', '0x10', '+5', ' 5', '5 ', '5.0', `1${'0'.repeat(400)}`)
    }
    return invalidValue(schema).filter((value): value is string => typeof value === 'string')
  }
  const mutation = fc.oneof(
    fc.constantFrom(...names).chain((name) => badValue(name).map((value): Array<[string, string]> => [[name, value]])),
    fc.constantFrom(...names).chain((name) => fc.tuple(valid(listQuery.properties[name]), valid(listQuery.properties[name]))
      .map(([a, b]): Array<[string, string]> => [[name, String(a)], [name, String(b)]])),
    fc.string({ minLength: 1, maxLength: 10 }).filter((name) => !names.includes(name)).map((name): Array<[string, string]> => [[name, '1']]),
    fc.constantFrom('%%', '%E0%A4%A').map((raw): Array<[string, string]> => [['cursor', decodeURIComponentSafe(raw)]])
  )
  await fc.assert(fc.asyncProperty(mutation, async (pairs) => {
    const search = new URLSearchParams(pairs as Array<[string, string]>)
    const response = await send(app, 'listPets', { url: `/v1/pets?${search.toString()}`, headers: AUTH })
    if (response.statusCode !== 400) throw new Error(`expected 400, got ${response.statusCode} for ${search.toString()}: ${response.body}`)
    if (!/querystring/.test(JSON.parse(response.body).message)) throw new Error(`message names no parameter: ${response.body}`)
  }), { seed, numRuns })
})

function decodeURIComponentSafe (text: string): string {
  try { return decodeURIComponent(text) } catch { return text }
}

t.test('getPet: any int64 id answers 200 or 404, with the deprecation headers; anything else 400', async (t) => {
  const app = await makeApp(t)
  await addPets(app, 5)
  const id = fc.oneof(
    valid(petIdSchema).map((value) => ({ text: String(value), valid: true })),
    fc.constantFrom('0', '-1', '1.5', 'abc', '9223372036854775808', '1e3', '0x10', '%20', '18446744073709551616', 'Infinity', '-Infinity', '%2B5', '5.0').map((text) => ({ text, valid: false }))
  )
  await fc.assert(fc.asyncProperty(id, async ({ text, valid: isValid }) => {
    const response = await send(app, 'getPet', { url: `/v1/pets/${text}`, headers: AUTH })
    const expected = isValid ? [200, 404] : [400]
    if (!expected.includes(response.statusCode)) throw new Error(`petId ${text}: expected ${expected.join(' or ')}, got ${response.statusCode}`)
    for (const header of ['deprecation', 'sunset', 'link']) {
      if (response.headers[header] === undefined) throw new Error(`petId ${text}: no ${header} header`)
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
