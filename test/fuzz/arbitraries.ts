/**
 * fast-check arbitraries derived from JSON schemas of the OpenAPI document: values that a
 * schema accepts, and values it must refuse. Nothing here restates a schema; every type,
 * bound, pattern, format, enum, const, default, `uniqueItems` and alternative (`oneOf`,
 * `anyOf`, `allOf`, `type: [x, 'null']`, OpenAPI 3.0's `nullable`) is read from the one
 * passed in.
 */
import fc from 'fast-check'
import { stringify } from 'lossless-json'
import { accepts } from './contract.ts'
import { invalidStrings, validString, type Channel } from './strings.ts'

export type Schema = { [key: string]: any }
export type { Channel } from './strings.ts'

const INT64_MAX = 2n ** 63n - 1n
const INT32_MAX = 2n ** 31n - 1n
const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** A JSON integer as the API takes it: a number when exact, else a BigInt. */
const asJsonInt = (value: bigint) => value >= -SAFE && value <= SAFE ? Number(value) : value

/** The types a schema allows, `null` included when it is nullable; undefined when it names none. */
export function typesOf (schema: Schema): string[] | undefined {
  if (schema.type === undefined) return undefined
  const types = [schema.type].flat() as string[]
  return schema.nullable === true && !types.includes('null') ? [...types, 'null'] : types
}

/** The schema's keywords other than its alternatives, which apply to every alternative too. */
function siblings (schema: Schema): Schema {
  const { oneOf: _oneOf, anyOf: _anyOf, allOf: _allOf, default: _default, ...rest } = schema
  return rest
}

/** `allOf` as one schema: the parts' keywords together, their properties and required lists merged. */
export function merged (schema: Schema): Schema {
  return (schema.allOf as Schema[]).reduce<Schema>((whole, part) => ({
    ...whole,
    ...part,
    properties: { ...whole.properties, ...part.properties },
    required: [...(whole.required ?? []), ...(part.required ?? [])]
  }), siblings(schema))
}

/** The smallest and largest integers the schema takes, its format's range where it names no bound. */
function integerBounds (schema: Schema): [bigint, bigint] {
  const widest = schema.format === 'int64' ? INT64_MAX : schema.format === 'int32' ? INT32_MAX : SAFE
  const up = (bound: number | bigint) => typeof bound === 'bigint' ? bound : BigInt(Math.ceil(bound))
  const down = (bound: number | bigint) => typeof bound === 'bigint' ? bound : BigInt(Math.floor(bound))
  const low = schema.exclusiveMinimum !== undefined ? down(schema.exclusiveMinimum) + 1n : schema.minimum !== undefined ? up(schema.minimum) : widest === SAFE ? -SAFE : -widest - 1n
  const high = schema.exclusiveMaximum !== undefined ? up(schema.exclusiveMaximum) - 1n : schema.maximum !== undefined ? down(schema.maximum) : widest
  return [low, high > INT64_MAX ? INT64_MAX : high]
}

function validInteger (schema: Schema): fc.Arbitrary<number | bigint> {
  const [min, max] = integerBounds(schema)
  const step = BigInt(schema.multipleOf ?? 1)
  const [low, high] = [(min + step - 1n) / step, max / step]
  const edges = [low, high, low + 1n, high - 1n, SAFE / step, SAFE / step + 1n, SAFE / step + 2n].filter((value) => value >= low && value <= high)
  return fc.oneof(fc.constantFrom(...edges), fc.bigInt({ min: low, max: high })).map((value) => asJsonInt(value * step))
}

function validNumber (schema: Schema): fc.Arbitrary<number> {
  const min = schema.exclusiveMinimum ?? schema.minimum
  const max = schema.exclusiveMaximum ?? schema.maximum
  return fc.double({
    noNaN: true,
    noDefaultInfinity: true,
    ...(min !== undefined && { min: Number(min), minExcluded: schema.exclusiveMinimum !== undefined }),
    ...(max !== undefined && { max: Number(max), maxExcluded: schema.exclusiveMaximum !== undefined })
  })
}

/** Any JSON value. */
export const anyJson = fc.oneof(fc.constant(null), fc.boolean(), fc.double(), fc.string(), fc.array(fc.integer(), { maxLength: 3 }), fc.object({ maxDepth: 1 }))

function ofType (schema: Schema, type: string, channel: Channel): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null': return fc.constant(null)
    case 'string': return validString(schema, channel)
    case 'integer': return validInteger(schema)
    case 'number': return fc.oneof(validNumber(schema), validInteger(schema))
    case 'boolean': return fc.boolean()
    case 'array': {
      const items = valid(schema.items ?? {})
      const size = { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 5) }
      // uniqueItems compares JSON values, so items are told apart by their JSON text.
      return schema.uniqueItems === true ? fc.uniqueArray(items, { ...size, selector: (item) => stringify(item) }) : fc.array(items, size)
    }
    case 'object': {
      // A read-only property is the service's to set, not the client's (OpenAPI 3.1 section 4.8.24).
      const writable = Object.entries(schema.properties ?? {}).filter(([, inner]) => (inner as Schema).readOnly !== true)
      const properties = Object.fromEntries(writable.map(([name, inner]) => [name, valid(inner as Schema)]))
      return fc.record(properties, { requiredKeys: (schema.required ?? []).filter((name: string) => name in properties) })
    }
    default: throw new Error(`no arbitrary for schema type ${type}`)
  }
}

/**
 * Values the schema accepts. `channel` narrows strings to what the place they travel in
 * can carry (./strings.ts).
 */
export function valid (schema: Schema, channel: Channel = {}): fc.Arbitrary<unknown> {
  const choices: Array<fc.Arbitrary<unknown>> = []
  if (schema.const !== undefined) choices.push(fc.constant(schema.const))
  else if (schema.enum !== undefined) choices.push(fc.constantFrom(...schema.enum))
  else if (schema.allOf !== undefined) choices.push(valid(merged(schema), channel))
  else if (schema.oneOf !== undefined) {
    // Exactly one alternative may accept a value: one that two accept is not valid.
    const alternatives = (schema.oneOf as Schema[]).map((alternative) => ({ ...siblings(schema), ...alternative }))
    choices.push(fc.oneof(...alternatives.map((alternative) => valid(alternative, channel)))
      .filter((value) => alternatives.filter((alternative) => accepts(alternative, value)).length === 1))
  } else if (schema.anyOf !== undefined) {
    choices.push(...(schema.anyOf as Schema[]).map((alternative) => valid({ ...siblings(schema), ...alternative }, channel)))
  } else {
    const types = typesOf(schema)
    choices.push(...types === undefined ? [anyJson] : types.map((type) => ofType(schema, type, channel)))
  }
  // The default is a value too, and the one a client that sends nothing gets.
  if (schema.default !== undefined) choices.push(fc.constant(schema.default))
  return choices.length === 1 ? choices[0]! : fc.oneof(...choices)
}

/** Whether the schema refuses anything at all. */
export const constrains = (schema: Schema) => ['type', 'const', 'enum', 'oneOf', 'anyOf', 'allOf', 'not'].some((keyword) => schema[keyword] !== undefined)

/**
 * Values the schema must refuse. Those made to break one keyword of a plain schema (a bound,
 * a length, the pattern, the enum; int64 edges a double cannot tell apart) are refused by
 * construction; anything else, and every candidate for a schema with alternatives, is kept
 * only if the schema refuses it.
 */
export function invalidValue (schema: Schema): fc.Arbitrary<unknown> {
  if (!constrains(schema)) throw new Error(`the schema ${JSON.stringify(schema)} takes any value: nothing is invalid for it`)
  if (schema.allOf !== undefined) return invalidValue(merged(schema))
  const sure: Array<fc.Arbitrary<unknown>> = []
  const candidates: Array<fc.Arbitrary<unknown>> = [anyJson]
  const plain = schema.oneOf === undefined && schema.anyOf === undefined
  const types = typesOf(schema) ?? []
  if (schema.const !== undefined) candidates.push(fc.constant(typeof schema.const === 'string' ? `${schema.const} ` : [schema.const]))
  if (schema.enum !== undefined) {
    const texts = (schema.enum as unknown[]).filter((value): value is string => typeof value === 'string')
    candidates.push(fc.string().filter((text) => !texts.includes(text)), ...texts.length > 0 ? [fc.constantFrom(...texts.map((text) => text.toUpperCase() + ' '))] : [])
  } else if (plain && (types.includes('integer') || types.includes('number'))) {
    candidates.push(fc.constantFrom(1.5, -0.5, Number.NaN, Number.POSITIVE_INFINITY, '5', true))
    // Past a bound, and past what int64 holds: BigInts, which only construction can vouch for.
    const [min, max] = integerBounds(schema)
    const edges: unknown[] = []
    if (schema.minimum !== undefined || schema.exclusiveMinimum !== undefined) edges.push(asJsonInt(min - 1n), -1n * 2n ** 63n - 1n)
    if (schema.maximum !== undefined || schema.exclusiveMaximum !== undefined) edges.push(asJsonInt(max >= INT64_MAX ? INT64_MAX + 1n : max + 1n))
    if (types.includes('integer') && !types.includes('number')) edges.push(2n ** 64n)
    if (edges.length > 0) sure.push(fc.constantFrom(...edges))
  } else if (plain && types.includes('string')) {
    sure.push(...invalidStrings(schema))
  }
  for (const alternative of [...schema.oneOf ?? [], ...schema.anyOf ?? []] as Schema[]) {
    const whole = { ...siblings(schema), ...alternative }
    if (constrains(whole)) candidates.push(invalidValue(whole))
  }
  return fc.oneof(fc.oneof(...candidates).filter((value) => !accepts(schema, value)), ...sure)
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
  for (const [name, inner] of properties.filter(([, inner]) => constrains(inner))) {
    mutations.push(fc.tuple(base, invalidValue(inner)).map(([value, bad]) => ({ ...value, [name]: bad })))
  }
  return fc.oneof(...mutations)
}

/** Bodies the body schema must refuse: an object broken one way (above), or another value altogether. */
export function invalidBody (schema: Schema): fc.Arbitrary<unknown> {
  if (schema.allOf !== undefined) return invalidBody(merged(schema))
  const plainObject = typesOf(schema)?.join() === 'object' && schema.oneOf === undefined && schema.anyOf === undefined
  return plainObject ? fc.oneof(invalidObject(schema), invalidValue(schema)) : invalidValue(schema)
}
