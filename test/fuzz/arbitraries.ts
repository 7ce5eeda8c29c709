/**
 * fast-check arbitraries derived from JSON schemas of the OpenAPI document: values that a
 * schema accepts, and values it must refuse. Nothing here restates a schema; every bound,
 * pattern and enum is read from the one passed in.
 */
import fc from 'fast-check'

export type Schema = { [key: string]: any }

const INT64_MAX = 2n ** 63n - 1n
const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** A JSON integer as the API takes it: a number when exact, else a BigInt. */
const asJsonInt = (value: bigint) => value >= -SAFE && value <= SAFE ? Number(value) : value

/** The code-point length AJV measures `minLength`/`maxLength` in. */
const length = (text: string) => [...text].length

/** RFC 3339 date-times, with `Z` or an offset and with or without fractions of a second. */
const dateTime = fc.tuple(
  fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
  fc.constantFrom('Z', '+00:00', '+02:00', '-05:30', '+14:00'),
  fc.boolean()
).map(([date, zone, fraction]) => date.toISOString().slice(0, fraction ? 23 : 19) + zone)

function validString (schema: Schema): fc.Arbitrary<string> {
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum as string[])
  if (schema.format === 'date-time') return dateTime
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u')
  const minLength = schema.minLength ?? 0
  const maxLength = Math.min(schema.maxLength ?? 64, 400)
  // Any code point at all (controls, surrogates, RTL marks, astral), then kept if the schema
  // agrees; plus plain words, so that valid values are not all exotic.
  return fc.oneof(
    fc.string({ unit: 'binary', minLength, maxLength }),
    fc.string({ unit: 'grapheme', minLength, maxLength }),
    fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]*$/).map((text) => text.slice(0, maxLength))
  ).filter((text) => length(text) >= minLength && length(text) <= maxLength && (pattern === undefined || pattern.test(text)))
}

function validInteger (schema: Schema): fc.Arbitrary<number | bigint> {
  const int64 = schema.format === 'int64'
  const min = BigInt(schema.minimum ?? (int64 ? -INT64_MAX - 1n : Number.MIN_SAFE_INTEGER))
  const maxRaw = BigInt(schema.maximum ?? (int64 ? INT64_MAX : Number.MAX_SAFE_INTEGER))
  const max = maxRaw > INT64_MAX ? INT64_MAX : maxRaw
  const edges = [min, max, min + 1n, max - 1n, SAFE, SAFE + 1n, SAFE + 2n].filter((value) => value >= min && value <= max)
  return fc.oneof(fc.constantFrom(...edges), fc.bigInt({ min, max })).map(asJsonInt)
}

/** Values the schema accepts. */
export function valid (schema: Schema): fc.Arbitrary<unknown> {
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum)
  switch (schema.type) {
    case 'string': return validString(schema)
    case 'integer': return validInteger(schema)
    case 'boolean': return fc.boolean()
    case 'array': return fc.array(valid(schema.items), { maxLength: 5 })
    case 'object': {
      const required = new Set<string>(schema.required ?? [])
      const properties = Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, inner]) => [name, valid(inner as Schema)]))
      return fc.record(properties, { requiredKeys: [...required] })
    }
    default: throw new Error(`no arbitrary for schema type ${String(schema.type)}`)
  }
}

/** Values no schema with a type should take for `schema`, whatever its type. */
const anyJson = fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.string(), fc.array(fc.integer(), { maxLength: 3 }), fc.object({ maxDepth: 1 }))

/** Values the (non-object) schema must refuse. */
export function invalidValue (schema: Schema): fc.Arbitrary<unknown> {
  const choices: Array<fc.Arbitrary<unknown>> = [anyJson.filter((value) => !sameType(schema, value))]
  if (schema.enum !== undefined) {
    choices.push(fc.string().filter((text) => !schema.enum.includes(text)))
    choices.push(fc.constantFrom(...(schema.enum as string[]).map((text) => text.toUpperCase() + ' ')))
  } else if (schema.type === 'integer') {
    const edges: unknown[] = [1.5, -0.5, Number.NaN, Number.POSITIVE_INFINITY, '5', true]
    if (schema.minimum !== undefined) edges.push(asJsonInt(BigInt(schema.minimum) - 1n), -1n * 2n ** 63n - 1n)
    if (schema.maximum !== undefined) edges.push(asJsonInt(BigInt(schema.maximum) > INT64_MAX ? INT64_MAX + 1n : BigInt(schema.maximum) + 1n))
    edges.push(2n ** 64n)
    choices.push(fc.constantFrom(...edges))
  } else if (schema.type === 'string') {
    if (schema.format === 'date-time') {
      choices.push(fc.constantFrom('tomorrow', '2026-02-30T10:00:00Z', '2026-12-01', '2026-12-01T10:00:00', '2026-12-01T25:00:00Z', '2026-12-01 10:00Z', ''))
    }
    if (schema.maxLength !== undefined) choices.push(fc.constant('x'.repeat(schema.maxLength + 1)))
    if (schema.minLength !== undefined && schema.minLength > 0) choices.push(fc.constant(''))
    if (schema.pattern !== undefined) {
      const pattern = new RegExp(schema.pattern, 'u')
      choices.push(fc.constantFrom('\u0000', ' ', '\t\n', 'a\ud800b', '\udfff', 'name\u0007', '\u200b', '\u00ad', 'a\u202eb', 'a\u200db').filter((text) => !pattern.test(text)))
    }
  }
  return fc.oneof(...choices)
}

function sameType (schema: Schema, value: unknown): boolean {
  switch (schema.type) {
    case 'string': return typeof value === 'string'
    case 'integer': return typeof value === 'number' && Number.isInteger(value)
    case 'boolean': return typeof value === 'boolean'
    case 'array': return Array.isArray(value)
    case 'object': return value !== null && typeof value === 'object' && !Array.isArray(value)
    default: return false
  }
}

/** Objects the object schema must refuse: a required property missing, an unknown one, or one with a bad value. */
export function invalidObject (schema: Schema): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries(schema.properties ?? {}) as Array<[string, Schema]>
  const base = valid(schema) as fc.Arbitrary<Record<string, unknown>>
  const mutations: Array<fc.Arbitrary<Record<string, unknown>>> = []
  for (const name of schema.required ?? []) {
    mutations.push(base.map((value) => { const copy = { ...value }; delete copy[name]; return copy }))
  }
  if (schema.additionalProperties === false) {
    const unknownName = fc.oneof(fc.constantFrom('id', '__proto__', 'constructor', 'categoryID', 'Name'), fc.string({ minLength: 1, maxLength: 8 }))
      .filter((name) => !(name in (schema.properties ?? {})))
    mutations.push(fc.tuple(base, unknownName, anyJson).map(([value, name, extra]) => ({ ...value, [name]: extra })))
  }
  for (const [name, inner] of properties) {
    mutations.push(fc.tuple(base, invalidValue(inner)).map(([value, bad]) => ({ ...value, [name]: bad })))
  }
  return fc.oneof(...mutations)
}
