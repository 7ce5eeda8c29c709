/**
 * Every property of a pet, as the document declares them, through every way a pet is
 * written (a create alone, with an Idempotency-Key, among others at once, and a patch) and
 * every way it is read back (getPet, listPets, the events' data). A property the document
 * gains is in here with no edit, so a write path that misses its column fails here, on
 * each database (`npm run test:postgres` runs this file too).
 */
import { stringify } from 'lossless-json'
import t from 'tap'
import { apiDocument, type JsonObject } from '../../../src/contract/document.ts'
import { parseJson } from '../../../src/http/json.ts'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { feedWhere } from '../../helpers/events.ts'

const schemas = (apiDocument.document.components as JsonObject).schemas as JsonObject

/** The schema `schema` refers to, and for a nullable one (`anyOf` with `type: 'null'`) the one of its other values. */
function resolved (schema: JsonObject): JsonObject {
  if (typeof schema.$ref === 'string') return resolved(schemas[schema.$ref.split('/').at(-1)!] as JsonObject)
  if (Array.isArray(schema.anyOf)) return resolved((schema.anyOf as JsonObject[]).find((branch) => branch.type !== 'null')!)
  return schema
}

/** A valid value of `schema`, one of two (`variant` 0 or 1) that differ from each other. */
function valueOf (property: string, schema: JsonObject, variant: 0 | 1): unknown {
  const { type, enum: values, minimum, maximum, minLength = 0 } = resolved(schema) as { type?: string, enum?: unknown[], minimum?: number, maximum?: number | bigint, minLength?: number }
  if (values !== undefined) return values.at(variant === 0 ? -1 : -2)
  if (type === 'string') return `${property} ${variant}`.padEnd(minLength, '.')
  // An int64 past what a double holds, where the schema allows one: kept digit for digit.
  if (type === 'integer') return maximum === undefined || BigInt(maximum) > 2n ** 53n ? 2n ** 53n + 1n + BigInt(variant) : (minimum ?? 0) + variant
  if (type === 'boolean') return variant === 0
  throw new Error(`${property}: no value for a schema of type ${String(type)}; teach valueOf this test's file one`)
}

/** A NewPet with every property the document declares, each with value `variant`. */
function everyProperty (variant: 0 | 1): Record<string, unknown> {
  const { properties } = schemas.NewPet as { properties: JsonObject }
  return Object.fromEntries(Object.entries(properties).map(([name, schema]) => [name, valueOf(name, schema as JsonObject, variant)]))
}

/** The NewPet with only the properties it requires, each with value `variant`. */
function requiredOnly (variant: 0 | 1): Record<string, unknown> {
  const { required = [] } = schemas.NewPet as { required?: string[] }
  const all = everyProperty(variant)
  return Object.fromEntries(required.map((name) => [name, all[name]]))
}

/** JSON text of `body`, an int64 digit for digit. */
const json = (body: unknown) => stringify(body) as string
/** The same, a pet's properties in one order whatever order they came in. */
const canonical = (pet: Record<string, unknown> | undefined) => pet === undefined ? 'none' : json(Object.fromEntries(Object.entries(pet).sort(([a], [b]) => a < b ? -1 : 1)))

t.test('the document gives pets properties beyond the ones they require, so this test covers more than a minimal pet', async (t) => {
  t.ok(Object.keys(everyProperty(0)).length > Object.keys(requiredOnly(0)).length)
  t.not(json(everyProperty(0)), json(everyProperty(1)), 'the two variants differ')
})

t.test('every property of a pet reads back as written, through every write path', async (t) => {
  const app = await build(t)
  const full = everyProperty(0)
  const written = new Map<string, Record<string, unknown>>()
  const post = async (body: unknown, headers: Record<string, string> = {}) => {
    const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: { ...JSON_HEADERS, ...headers }, payload: json(body) })
    t.equal(res.statusCode, 201, res.body)
    return parseJson(res.body) as Record<string, unknown>
  }

  const alone = await post(full)
  written.set('a create alone', alone)
  written.set('a create with an Idempotency-Key', await post(full, { 'idempotency-key': 'round-trip-1' }))
  const together = await Promise.all([0, 1, 2, 3].map(() => post(full)))
  together.forEach((pet, i) => written.set(`a create among others at once (${i + 1} of 4)`, pet))

  const plain = await post(requiredOnly(1))
  const patch = await app.inject({ method: 'PATCH', url: `/v1/pets/${String(plain.id)}`, headers: { ...JSON_HEADERS, 'content-type': 'application/merge-patch+json' }, payload: json(full) })
  t.equal(patch.statusCode, 200, patch.body)
  written.set('a patch of every property', parseJson(patch.body) as Record<string, unknown>)

  const listed = await app.inject({ url: '/v1/pets?limit=100', headers: AUTH })
  const page = parseJson(listed.body) as Array<Record<string, unknown>>
  // The patch's event is the last written; once it is in the feed, every one before it is too.
  const events = await feedWhere(app, (events) => events.some((event) => event.type === 'pet.updated' && String(event.data.id) === String(plain.id)), 'the patch\'s event in the feed')
  for (const [path, answer] of written) {
    const expected = canonical({ id: answer.id, ...full })
    t.equal(canonical(answer), expected, `${path}: the answer`)
    const got = await app.inject({ url: `/v1/pets/${String(answer.id)}`, headers: AUTH })
    t.equal(canonical(parseJson(got.body) as Record<string, unknown>), expected, `${path}: getPet`)
    t.equal(canonical(page.find((pet) => String(pet.id) === String(answer.id))), expected, `${path}: listPets`)
    const event = events.findLast((event) => event.type.startsWith('pet.') && String(event.data.id) === String(answer.id))
    t.equal(canonical(event?.data), expected, `${path}: its event's data`)
  }
})
