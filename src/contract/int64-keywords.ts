/**
 * The `int64` AJV keyword.
 *
 * AJV's `type: integer` refuses BigInt, and a number coerced from a query string rounds
 * past 2^53. So every `{type: integer, format: int64}` schema is rewritten to use this
 * keyword, which accepts a safe integer or a BigInt (and, where coercion is on, a string
 * of digits), checks the bounds exactly, and leaves a number when the value fits in one,
 * a BigInt when it does not.
 *
 * It is written as code, like AJV's own keywords, so that a validator using it can be
 * written out whole (AJV's standalone code: ./precompiled.ts): the check of each schema's
 * bounds is a function made once per schema (`int64Check`), which the code refers to by
 * this module and the bounds.
 */
import { _, type Ajv, type KeywordCxt } from 'ajv'
import { fileURLToPath } from 'node:url'
import { INT64_MAX, INT64_MIN, toApiInt } from '../http/int64.ts'

/** A schema's bounds, as digits: the schema stays JSON, which AJV writes into a validator's code. */
interface Bounds { minimum?: string, maximum?: string }

const DIGITS = /^-?\d{1,20}$/

function toBigInt (data: unknown, coerceStrings: boolean): bigint | undefined {
  if (typeof data === 'bigint') return data
  if (typeof data === 'number') return Number.isInteger(data) ? BigInt(data) : undefined
  if (coerceStrings && typeof data === 'string' && DIGITS.test(data)) return BigInt(data)
  return undefined
}

/** The bounds of one schema, as exact BigInts; a maximum past int64 is the int64 maximum. */
function exactBounds (bounds: Bounds): { min: bigint, max: bigint } {
  const min = bounds.minimum === undefined ? INT64_MIN : BigInt(bounds.minimum)
  // A maximum written as 9223372036854775807 may reach here rounded up to 2^63.
  const max = bounds.maximum === undefined || BigInt(bounds.maximum) > INT64_MAX ? INT64_MAX : BigInt(bounds.maximum)
  return { min, max }
}

function problem (value: bigint | undefined, min: bigint, max: bigint): string | undefined {
  if (value === undefined) return 'must be integer'
  if (value < min) return `must be >= ${min}`
  if (value > max) return `must be <= ${max}`
  return undefined
}

/**
 * The check of one schema's bounds (given as digits): the value as the API holds it (a
 * number, or a BigInt past 2^53), or, as a string, why it is refused.
 */
export function int64Check (min: string, max: string, coerceStrings: boolean): (data: unknown) => number | bigint | string {
  const low = BigInt(min)
  const high = BigInt(max)
  return (data) => {
    const value = toBigInt(data, coerceStrings)
    return problem(value, low, high) ?? toApiInt(value!)
  }
}

/** This module, for the code of a validator written out whole to find `int64Check` by. */
const THIS_MODULE = fileURLToPath(import.meta.url)

export function addInt64Keyword (ajv: Ajv, { coerceStrings }: { coerceStrings: boolean }): void {
  ajv.addKeyword({
    keyword: 'int64',
    modifying: true,
    schemaType: 'object',
    // The message is the check's answer; as the keyword's did before, it has no parameters.
    error: { message: ({ params }) => _`${params.problem}`, params: () => _`{}` },
    code (cxt: KeywordCxt) {
      const { gen, data, it } = cxt
      const { min, max } = exactBounds(cxt.schema as Bounds)
      const check = gen.scopeValue('keyword', {
        ref: int64Check(String(min), String(max), coerceStrings),
        code: _`require(${THIS_MODULE}).int64Check(${String(min)}, ${String(max)}, ${coerceStrings})`
      })
      const value = gen.const('int64', _`${check}(${data})`)
      gen.if(_`typeof ${value} === "string"`, () => {
        cxt.setParams({ problem: value })
        cxt.error()
      }, () => {
        // Where the value is a property or an item, it is left there converted.
        gen.if(_`${it.parentData} !== undefined`, () => gen.assign(_`${it.parentData}[${it.parentDataProperty}]`, value))
      })
    }
  })
}

type Schema = { [key: string]: unknown }

/** Rewrites every int64 integer schema inside `schema` to use the `int64` keyword. */
export function useInt64Keyword (schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(useInt64Keyword)
  if (schema === null || typeof schema !== 'object') return schema
  const { type, format, minimum, maximum, ...rest } = schema as Schema
  const rewritten = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, useInt64Keyword(value)]))
  if (type === 'integer' && format === 'int64') return { ...rewritten, int64: definedEntries({ minimum: digits(minimum), maximum: digits(maximum) }) }
  return { ...rewritten, ...definedEntries({ type, format, minimum, maximum }) }
}

/** A bound as digits; an integer as large as 1e21 is written `1e+21` by `String`, so through BigInt. */
const digits = (bound: unknown) => {
  if (bound === undefined) return undefined
  return typeof bound === 'number' && Number.isInteger(bound) ? String(BigInt(bound)) : String(bound)
}

function definedEntries (object: Schema): Schema {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined))
}
