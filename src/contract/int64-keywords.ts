/**
 * The `int64` AJV keyword.
 *
 * AJV's `type: integer` refuses BigInt, and a number coerced from a query string rounds
 * past 2^53. So every `{type: integer, format: int64}` schema is rewritten to use this
 * keyword, which accepts a safe integer or a BigInt (and, where coercion is on, a string
 * of digits), checks the bounds exactly, and leaves a number when the value fits in one,
 * a BigInt when it does not.
 */
import type { Ajv } from 'ajv'
import type { DataValidateFunction } from 'ajv/dist/types/index.js'
import { INT64_MAX, INT64_MIN, toApiInt } from '../http/int64.ts'

interface Bounds { minimum?: number | bigint, maximum?: number | bigint }

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

export function addInt64Keyword (ajv: Ajv, { coerceStrings }: { coerceStrings: boolean }): void {
  ajv.addKeyword({
    keyword: 'int64',
    modifying: true,
    errors: true,
    schemaType: 'object',
    // Compiled once per schema: each call only converts and compares.
    compile (bounds: Bounds) {
      const { min, max } = exactBounds(bounds)
      const validate: DataValidateFunction = (data, context) => {
        const value = toBigInt(data, coerceStrings)
        const message = problem(value, min, max)
        if (message !== undefined) {
          validate.errors = [{ keyword: 'int64', message, params: {} }]
          return false
        }
        if (context !== undefined && context.parentData !== undefined) {
          context.parentData[context.parentDataProperty] = toApiInt(value!)
        }
        return true
      }
      return validate
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
  if (type === 'integer' && format === 'int64') return { ...rewritten, int64: { minimum, maximum } }
  return { ...rewritten, ...definedEntries({ type, format, minimum, maximum }) }
}

function definedEntries (object: Schema): Schema {
  return Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined))
}
