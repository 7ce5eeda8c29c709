/**
 * 64-bit integers without rounding.
 *
 * JavaScript numbers are exact only up to 2^53. Ids and categoryIds are int64, so a value
 * beyond that travels as a BigInt from the JSON parser to the database and back; a value
 * that fits stays a plain number, which keeps the common path cheap.
 */
export const INT64_MIN = -(2n ** 63n)
export const INT64_MAX = 2n ** 63n - 1n

const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER)
const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** A database or wire integer, as the API returns it: a number when exact, else a BigInt. */
export function toApiInt (value: bigint | number | string): number | bigint {
  if (typeof value === 'number') return value
  if (typeof value === 'bigint') return value >= MIN_SAFE && value <= MAX_SAFE ? Number(value) : value
  const number = Number(value)
  return Number.isSafeInteger(number) ? number : BigInt(value)
}
