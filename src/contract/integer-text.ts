/**
 * Integer parameters read from text: decimal digits only, with an optional minus sign.
 *
 * AJV's coercion takes whatever `Number()` takes: `Infinity`, `1e400`, `1e1`, `0x10`, ` 5`,
 * `5.0`. Worse, a coerced `Infinity` passes `type: integer` and the bounds, and reaches
 * the database as a 500. So, before AJV sees them, the query, path and header values of
 * every property declared `type: integer` are read here: digits become numbers (the
 * schema's bounds then judge them, so `-5` for a limit of at least 1 says `must be >= 1`),
 * anything else is refused by AJV itself, which words the error and picks, as always, the
 * failure that comes first. int64 properties are not concerned: their keyword
 * (./int64-keywords.ts) reads digits itself.
 */
import type { ValidateFunction } from 'ajv'

const INTEGER_TEXT = /^-?\d+$/

/** What AJV refuses as `must be integer` even with coercion on: an object is never coerced. */
const NOT_AN_INTEGER = Object.freeze({})

/** The names of the properties of an object schema declared `type: integer`. */
function integerProperties (schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {}
  return Object.keys(properties).filter((name) => properties[name]!.type === 'integer')
}

/**
 * Digits as a number; past the largest double, the largest double, so that the bounds,
 * not a coerced `Infinity`, answer for them.
 */
function toNumber (text: string): number {
  const value = Number(text)
  return Number.isFinite(value) ? value : Math.sign(value) * Number.MAX_VALUE
}

/**
 * `validate`, compiled from `schema` with coercion on, behind a check that its integer
 * properties, when given as text, are digits. The same function when it has none.
 */
export function integersAsDigits<T> (schema: unknown, validate: ValidateFunction<T>): ValidateFunction<T> {
  const names = integerProperties(schema)
  if (names.length === 0) return validate
  const checked = function (data: any, context?: any): boolean {
    if (data !== null && typeof data === 'object') {
      let refused: Record<string, unknown> | undefined
      for (const name of names) {
        const value = data[name]
        if (typeof value !== 'string') continue
        if (INTEGER_TEXT.test(value)) data[name] = toNumber(value)
        else (refused ??= { ...data })[name] = NOT_AN_INTEGER
      }
      if (refused !== undefined) {
        // A copy with the refused values in place of the text, for AJV's words: it fails.
        validate(refused)
        checked.errors = validate.errors
        return false
      }
    }
    const valid = validate(data, context)
    checked.errors = validate.errors
    return valid
  } as ValidateFunction<T>
  // Fastify reads `schemaEnv` to tell an AJV function, which may replace the root value.
  return Object.assign(checked, { schema: validate.schema, schemaEnv: validate.schemaEnv })
}
