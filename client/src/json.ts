/**
 * JSON with exact 64-bit integers, for the client.
 *
 * `Response.json()` and `JSON.stringify` round integers past 2^53, and ids and categoryIds
 * are int64: so answers are parsed with lossless-json (the parser the service itself uses),
 * a safe integer staying a number and a larger one becoming a bigint, and bodies are
 * written with a bigint as its exact digits. A `number` past 2^53 in a body has already
 * lost digits before it reached the client, so it is refused rather than sent rounded.
 */
import { isInteger, parse, stringify } from 'lossless-json'

/** An integer as a number while it is a safe one (as the service decides), else a bigint. */
function parseNumber (text: string): number | bigint {
  const number = Number(text)
  return isInteger(text) && !Number.isSafeInteger(number) ? BigInt(text) : number
}

export function parseJson (text: string): unknown {
  return parse(text, null, parseNumber)
}

/** Throws when `value` holds an integer `number` that a double cannot hold exactly. */
export function assertExact (value: unknown, where = 'value'): void {
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) {
    throw new RangeError(`${where} is ${value}, beyond 2^53 and so already rounded: pass it as a bigint`)
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) assertExact(item, `${where}.${key}`)
  }
}

/** A request body as JSON, bigints digit for digit. */
export function stringifyJson (value: unknown): string {
  assertExact(value, 'body')
  return stringify(value) as string
}
