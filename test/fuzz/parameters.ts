/**
 * Parameter values as they travel: text in a query string, a path segment or a header,
 * made from the parameter's schema. Valid text is what the schema accepts and the place
 * can carry; invalid text is what the service must refuse with a 400.
 */
import fc from 'fast-check'
import { NOT_DECIMAL_DIGITS } from '../helpers/inputs.ts'
import { merged, typesOf, valid, type Schema } from './arbitraries.ts'
import { invalidStrings, type Channel } from './strings.ts'

export interface Parameter { name: string, in: 'query' | 'path' | 'header', required: boolean, schema: Schema }

/** A value as sent: typed, and as it goes on the wire (percent-encoded in a URL). */
export interface Sent { value: unknown, wire: string }

const LONE_SURROGATE = /\p{Cs}/u
const VISIBLE = /^(?:[!-~](?:[ !-~]*[!-~])?)?$/

/** What each place carries (see Channel): a path segment is never empty, or it is another path. */
const CHANNELS: Record<Parameter['in'], Channel> = {
  query: { carries: (text) => !LONE_SURROGATE.test(text) },
  path: { carries: (text) => text !== '' && !LONE_SURROGATE.test(text) },
  header: { unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)), carries: (text) => VISIBLE.test(text) }
}

/** The three bytes of a lone surrogate's generalized UTF-8 form, `%ED%A0%80` for U+D800. */
const surrogateBytes = (unit: number) => [0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]
  .map((byte) => `%${byte.toString(16).toUpperCase()}`).join('')

/**
 * Text for a query string or a path segment, percent-encoded as UTF-8. A lone surrogate has
 * no UTF-8, and encodeURIComponent throws URIError on it; here it goes out as the bytes a
 * careless client sends for it, which are no UTF-8 either, so the service must refuse them.
 */
export function percentEncode (text: string): string {
  return Array.from(text, (char) => LONE_SURROGATE.test(char) ? surrogateBytes(char.charCodeAt(0)) : encodeURIComponent(char)).join('')
}

const onWire = (location: Parameter['in'], text: string) => location === 'header' ? text : percentEncode(text)

/** Valid values of the parameter, as text: integers in decimal digits, booleans as `true`/`false`. */
export function validParameter (parameter: Parameter): fc.Arbitrary<Sent> {
  return valid(parameter.schema, CHANNELS[parameter.in]).map((value) => ({ value, wire: onWire(parameter.in, String(value)) }))
}

/** A typed value given for the parameter (a test's own choice), on the wire. */
export const sentAs = (parameter: Parameter, value: unknown): Sent => ({ value, wire: onWire(parameter.in, String(value)) })

/** Percent-encodings that decode to no UTF-8: a lone `%`, a cut sequence, a lone byte, an overlong form, a lone surrogate's bytes. */
const NOT_UTF8 = ['%', '%%', '%E0%A4%A', '%FF', '%C0%AF', '%ED%A0%80', 'a%ED%B0%80b']

/** Texts a parameter of this schema must refuse, read from its type and keywords. */
function refusedTexts (schema: Schema, channel: Channel): Array<fc.Arbitrary<string>> {
  const [type] = typesOf(schema) ?? []
  // Just past each bound the schema declares (exclusive bounds are themselves past it).
  const past = (bound: unknown, by: number) => type === 'integer' ? String(BigInt(bound as number) + BigInt(by)) : String(Number(bound) + by)
  const bounds = [
    ...schema.minimum === undefined ? [] : [past(schema.minimum, -1)],
    ...schema.exclusiveMinimum === undefined ? [] : [String(schema.exclusiveMinimum)],
    ...schema.maximum === undefined ? [] : [past(schema.maximum, 1), String(2n ** 64n)],
    ...schema.exclusiveMaximum === undefined ? [] : [String(schema.exclusiveMaximum)]
  ]
  if (schema.const !== undefined) return [fc.constant(`${String(schema.const)} `)]
  if (schema.enum !== undefined) {
    const texts = (schema.enum as unknown[]).map(String)
    return [fc.constantFrom(...texts.map((text) => text.toUpperCase() + ' ')), fc.string().filter((text) => !texts.includes(text))]
  }
  switch (type) {
    case 'integer': return [fc.constantFrom('abc', '1.5', '', '-', '1_0', ...bounds)]
    case 'number': return [fc.constantFrom('abc', '', 'NaN', '1,5', ...bounds)]
    case 'boolean': return [fc.constantFrom('yes', 'TRUE', '1', '')]
    // A pattern may come in `allOf` (the document's `Text`).
    case 'string': return invalidStrings(schema.allOf === undefined ? schema : merged(schema), channel)
    default: return []
  }
}

/**
 * What the parameter must refuse, on the wire; undefined when there is nothing (a string
 * header of any length and content). In a URL, text that decodes to no UTF-8 is always refused.
 */
export function invalidParameter (parameter: Parameter): fc.Arbitrary<string> | undefined {
  const { carries } = CHANNELS[parameter.in]
  // A lone surrogate is refused in a URL, where it arrives as bytes that are no UTF-8; a
  // header is sent only what it can carry.
  const header = parameter.in === 'header'
  const texts = refusedTexts(parameter.schema, header ? CHANNELS.header : {}).map((text) => header ? text.filter(carries!) : text)
  const wires = texts.map((text) => text.map((value) => onWire(parameter.in, value)))
  if (parameter.in !== 'header') {
    wires.push(fc.constantFrom(...NOT_UTF8))
    if (typesOf(parameter.schema)?.includes('integer')) wires.push(fc.constantFrom(...NOT_DECIMAL_DIGITS))
  } else if (typesOf(parameter.schema)?.includes('integer')) {
    wires.push(fc.constantFrom(...NOT_DECIMAL_DIGITS.map(decodeURIComponent).filter((text) => carries!(text))))
  }
  // A path segment is never empty: `/pets/` is another path.
  const kept = wires.map((wire) => parameter.in === 'path' ? wire.filter((text) => text !== '') : wire)
  return kept.length === 0 ? undefined : fc.oneof(...kept)
}
