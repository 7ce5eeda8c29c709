/**
 * The JSON body parser.
 *
 * JSON.parse silently rounds numbers that a double cannot hold, which would corrupt int64
 * ids. Bodies are parsed with lossless-json instead:
 * - an integer literal beyond 2^53 becomes an exact BigInt;
 * - any other literal that a double cannot hold exactly (`9007199254740993.0`, `1e400`)
 *   becomes NaN, which every numeric schema refuses, so it is never stored rounded;
 * - every other number is a plain number.
 * It also refuses duplicate keys, and keeps `__proto__` as an ordinary (so unknown, so
 * refused) property instead of a prototype.
 */
import { isInteger, isSafeNumber, parse } from 'lossless-json'

function parseNumber (text: string): number | bigint {
  if (isSafeNumber(text)) return Number(text)
  return isInteger(text) ? BigInt(text) : Number.NaN
}

export function parseJson (text: string): unknown {
  return parse(text, null, parseNumber)
}
