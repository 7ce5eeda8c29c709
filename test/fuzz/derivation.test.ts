/**
 * The fuzz inputs follow from the document. A fixture (the service's own document with a
 * new query parameter, body fields with alternatives and null, the body declared under
 * merge-patch JSON too, a parameter moved to its path item) run through the generator
 * (./requests.ts) shows each change in the requests it makes. These tests look at the
 * generated requests themselves; sending them is the other fuzz files' work.
 */
import fc from 'fast-check'
import t from 'tap'
import { parse, stringify } from 'yaml'
import { ApiDocument, apiDocument } from '../../src/contract/document.ts'
import { invalidValue, valid, type Schema } from './arbitraries.ts'
import { accepts } from './contract.ts'
import { seed } from './harness.ts'
import { percentEncode } from './parameters.ts'
import { inputsOf, mutatedRequest, validRequest } from './requests.ts'
import { length } from './strings.ts'

/** The service's own document after `change`. */
function edited (change: (document: any) => void): ApiDocument {
  const document = parse(apiDocument.yaml, { intAsBigInt: true })
  change(document)
  return new ApiDocument(stringify(document), 'fixture')
}

// The fixture's parameter and fields have names no real change would pick, so a parameter or
// field the document gains (a `tag` filter, a `nickname`) never collides with them.
const PARAMETER = 'zzFixtureOnly'
const PATTERN = /^[a-z][a-z0-9-]{0,19}$/u
const fixture = edited((d) => {
  d.paths['/pets'].get.parameters.push({ name: PARAMETER, in: 'query', required: false, schema: { type: 'string', pattern: PATTERN.source } })
  const newPet = d.components.schemas.NewPet
  newPet.properties.zzFixtureNullable = { type: ['string', 'null'], maxLength: 20 }
  newPet.properties.zzFixtureOneOf = { oneOf: [{ type: 'integer', minimum: 0, maximum: 40 }, { type: 'string', const: 'unknown' }] }
  const body = d.paths['/pets'].post.requestBody
  body.content['application/merge-patch+json'] = { schema: body.content['application/json'].schema }
  const item = d.paths['/pets/{petId}']
  item.parameters = [item.get.parameters.shift()]
})

const sample = <T>(arbitrary: fc.Arbitrary<T>, numRuns = 500) => fc.sample(arbitrary, { seed, numRuns })
/** The value of a query parameter as it is on the wire, percent-encoded. */
const rawQuery = (url: string, name: string) => new RegExp(`[?&]${name}=([^&]*)`).exec(url)?.[1]
const decodes = (text: string) => { try { decodeURIComponent(text); return true } catch { return false } }

t.test('a query parameter added to the document is sent, with values its schema takes', async (t) => {
  const requests = sample(validRequest(fixture, 'listPets'))
  const values = requests.map((request) => request.values[PARAMETER]).filter((value) => value !== undefined)
  t.ok(values.length > 100 && values.length < requests.length, `${values.length} of ${requests.length} requests send the optional parameter`)
  t.ok(values.every((value) => typeof value === 'string' && PATTERN.test(value)), 'each value matches its pattern')
  t.ok(requests.every((request) => rawQuery(request.url, PARAMETER) === (request.values[PARAMETER] === undefined ? undefined : percentEncode(request.values[PARAMETER] as string))), 'each is in the URL')
  t.notOk(sample(validRequest(apiDocument, 'listPets')).some((request) => request.url.includes(`${PARAMETER}=`)), 'the service\'s own document sends none')
})

t.test('the new query parameter is mutated, lone surrogates sent as bytes that are no UTF-8', async (t) => {
  const mutated = sample(mutatedRequest(fixture, 'listPets'), 3000).filter((request) => request.mutation.startsWith(`query ${PARAMETER}`))
  t.ok(mutated.some((request) => request.mutation === `query ${PARAMETER} twice`), 'sent twice')
  const wires = mutated.filter((request) => request.mutation === `query ${PARAMETER}`).map((request) => rawQuery(request.url, PARAMETER)!)
  t.ok(wires.length > 20, `${wires.length} refused values`)
  t.ok(wires.every((wire) => !decodes(wire) || !PATTERN.test(decodeURIComponent(wire))), 'each is refused by the pattern or decodes to no UTF-8')
  t.ok(wires.some((wire) => /%ED%[AB][0-9A-F]%[89AB][0-9A-F]/.test(wire)), 'a lone surrogate among them, as its bytes')
  t.equal(percentEncode('a\ud800b'), 'a%ED%A0%80b')
  t.throws(() => encodeURIComponent('a\ud800b'), URIError, 'which encodeURIComponent cannot encode')
  t.equal(decodeURIComponent(percentEncode('é 😀&=+/?')), 'é 😀&=+/?', 'well-formed text round-trips')
})

t.test('body fields with alternatives and null are sent in each of their shapes, under each declared media type', async (t) => {
  const requests = sample(validRequest(fixture, 'createPet'))
  const schema = inputsOf(fixture, 'createPet').bodies[0]!.schema
  const bodies = requests.map((request) => request.body!.value as Record<string, unknown>)
  t.ok(bodies.every((body) => accepts(schema, body)), 'every body is valid')
  t.ok(bodies.some((body) => body.zzFixtureNullable === null) && bodies.some((body) => typeof body.zzFixtureNullable === 'string'), 'a nullable field: null and text')
  t.ok(bodies.some((body) => body.zzFixtureOneOf === 'unknown') && bodies.some((body) => typeof body.zzFixtureOneOf === 'number'), 'a oneOf field: each alternative')
  t.same(new Set(requests.map((request) => request.headers['content-type'])), new Set(['application/json', 'application/merge-patch+json']), 'both media types')
  t.ok(requests.every((request) => request.headers['content-type'] === request.body!.mediaType), 'each sent with its Content-Type')
  const mutations = new Set(sample(mutatedRequest(fixture, 'createPet'), 1000).map((request) => request.mutation))
  t.ok(mutations.has('body (application/merge-patch+json)'), 'bodies broken under merge-patch JSON too')
  t.ok(new Set(sample(mutatedRequest(apiDocument, 'createPet'), 1000).map((request) => request.mutation)).has('body as application/merge-patch+json, not declared'),
    'and, where it is not declared, sent as it to be refused')
})

t.test('every declared parameter of every operation is sent and mutated', async (t) => {
  for (const operationId of fixture.operations.keys()) {
    const sent = sample(validRequest(fixture, operationId), 300)
    const mutated = new Set(sample(mutatedRequest(fixture, operationId), 1500).map((request) => request.mutation))
    for (const parameter of inputsOf(fixture, operationId).parameters) {
      t.ok(sent.some((request) => request.values[parameter.name] !== undefined), `${operationId}: ${parameter.in} ${parameter.name} sent`)
      t.ok(mutated.has(`${parameter.in} ${parameter.name}`), `${operationId}: ${parameter.in} ${parameter.name} mutated`)
    }
  }
  t.ok(sample(validRequest(fixture, 'getPet')).every((request) => /^\/v1\/pets\/\d+$/.test(request.url)), 'a path item\'s parameter fills the path')
})

t.test('schemas become values they accept and values they refuse', async (t) => {
  const cases: Array<[string, Schema, (values: unknown[]) => boolean]> = [
    ['nullable (OpenAPI 3.0)', { type: 'integer', nullable: true, minimum: 1, maximum: 9 }, (v) => v.includes(null) && v.some((x) => typeof x === 'number')],
    ['type with null', { type: ['string', 'null'], maxLength: 3 }, (v) => v.includes(null) && v.some((x) => typeof x === 'string')],
    ['enum with null', { enum: ['calm', null] }, (v) => v.includes('calm') && v.includes(null)],
    ['const', { const: 'fixed' }, (v) => v.every((x) => x === 'fixed')],
    ['oneOf, overlapping', { oneOf: [{ type: 'integer', minimum: 0, maximum: 5 }, { type: 'integer', minimum: 3, maximum: 10 }] }, (v) => v.every((x) => (x as number) < 3 || (x as number) > 5)],
    ['anyOf', { anyOf: [{ type: 'string', format: 'date' }, { type: 'boolean' }] }, (v) => v.some((x) => typeof x === 'boolean') && v.some((x) => typeof x === 'string')],
    ['allOf', { allOf: [{ type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] }, { properties: { b: { type: 'boolean' } }, required: ['b'] }] }, (v) => v.every((x) => typeof x === 'object' && x !== null && 'a' in x && 'b' in x)],
    ['default', { type: 'integer', minimum: 0, maximum: 1000000, default: 7 }, (v) => v.filter((x) => x === 7).length > 20],
    ['pattern', { type: 'string', pattern: '^[A-Z]{2}-\\d{3}$' }, (v) => v.length > 0],
    ['uniqueItems', { type: 'array', items: { enum: ['a', 'b', 'c'] }, maxItems: 3, uniqueItems: true }, (v) => v.some((x) => (x as unknown[]).length >= 2)],
    ['exclusive bounds', { type: 'number', exclusiveMinimum: 0, maximum: 1 }, (v) => v.every((x) => (x as number) > 0 && (x as number) <= 1)]
  ]
  for (const [what, schema, shapes] of cases) {
    const values = sample(valid(schema), 300)
    t.ok(values.every((value) => accepts(schema, value)), `${what}: valid values are accepted`)
    t.ok(shapes(values), `${what}: in each shape`)
    t.ok(sample(invalidValue(schema), 300).every((value) => !accepts(schema, value)), `${what}: invalid values are refused`)
  }
  const int64 = { type: 'integer', format: 'int64', minimum: 1, maximum: 2n ** 63n - 1n }
  const ids = sample(valid(int64), 300)
  t.ok(ids.includes(2n ** 63n - 1n) && ids.some((id) => typeof id === 'bigint' && id > 2n ** 53n), 'int64: the maximum, and BigInts past 2^53')
  t.ok(sample(invalidValue(int64), 1000).includes(2n ** 63n), 'int64: 2^63, one past the maximum, among the refused')
})

t.test('body strings hold NULs, lone surrogates and the longest text where their schema takes them; date-times take every form', async (t) => {
  const free = sample(valid({ type: 'string', maxLength: 50 }), 1000) as string[]
  t.ok(free.some((text) => text.includes('\u0000')), 'a NUL')
  t.ok(free.some((text) => /\p{Cs}/u.test(text)), 'a lone surrogate')
  t.ok(free.some((text) => length(text) === 50 && text.length === 100), 'the longest, in astral characters')
  const url = inputsOf(apiDocument, 'createWebhookEndpoint').bodies[0]!.schema.properties.url
  t.notOk((sample(valid(url), 1000) as string[]).some((text) => text.includes('\u0000') || /\p{Cs}/u.test(text)), 'none where the document\'s Text refuses them')
  const dateTime = { type: 'string', format: 'date-time' }
  const times = sample(valid(dateTime), 1000) as string[]
  t.ok(times.every((time) => accepts(dateTime, time)), 'every date-time valid')
  const forms: Array<[string, RegExp]> = [
    ['a leap second', /:60(?:\.\d+)?(?:Z|[+-])/], ['one at an offset', /[+-]\d\d:\d\d$/], ['`t` for `T`', /^\S{10}t/], ['a space for `T`', /^\S{10} /],
    ['`z` for `Z`', /z$/], ['an offset without a colon', /[+-]\d{4}$/], ['an offset in hours', /[+-]\d\d$/], ['a fraction', /\.\d+(?:[Zz]|[+-])/]
  ]
  for (const [form, shape] of forms) t.ok(times.some((time) => shape.test(time)), form)
})
