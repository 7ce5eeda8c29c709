/**
 * Strings a string schema accepts and strings it must refuse, read from its `minLength`,
 * `maxLength`, `pattern` and `format`. A pattern is read as Unicode, as JSON Schema says;
 * fast-check's `stringMatching` makes strings for it where it can read the pattern (not
 * lookarounds), and any text is kept when the pattern takes it where it cannot.
 */
import fc from 'fast-check'

type Schema = { [key: string]: any }

/**
 * What the place a string travels in can carry. A JSON body carries any code point, lone
 * surrogates included (as `\ud800`); a URL carries no lone surrogate (it has no UTF-8);
 * a header carries visible ASCII and inner spaces.
 */
export interface Channel {
  /** The characters strings are made of, when not any code point. */
  unit?: fc.Arbitrary<string>
  /** Whether the place can carry the text. */
  carries?: (text: string) => boolean
}

/** The code-point length AJV measures `minLength`/`maxLength` in. */
export const length = (text: string) => [...text].length

export const patternOf = (schema: Schema) => schema.pattern === undefined ? undefined : new RegExp(schema.pattern, 'u')

/** RFC 3339 date-times, with `Z` or an offset and with or without fractions of a second. */
const dateTime = fc.tuple(
  fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }),
  fc.constantFrom('Z', '+00:00', '+02:00', '-05:30', '+14:00'),
  fc.boolean()
).map(([date, zone, fraction]) => date.toISOString().slice(0, fraction ? 23 : 19) + zone)

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  'date-time': dateTime,
  date: dateTime.map((text) => text.slice(0, 10)),
  uuid: fc.uuid(),
  email: fc.emailAddress(),
  uri: fc.webUrl()
}

/** Strings of a format that are not of it, by format. */
const NOT_OF_FORMAT: Record<string, string[]> = {
  'date-time': ['tomorrow', '2026-02-30T10:00:00Z', '2026-12-01', '2026-12-01T10:00:00', '2026-12-01T25:00:00Z', '2026-12-01 10:00Z', ''],
  date: ['2026-02-30', '2026-13-01', '20261201', '2026-12-01T10:00:00Z', ''],
  uuid: ['not-a-uuid', '123e4567-e89b-12d3-a456-42661417400', ''],
  email: ['no-at-sign', '@example.com', 'a@', ''],
  uri: ['not a uri', '//no-scheme', '']
}

/** Texts that break patterns: controls, lone surrogates, invisible and bidirectional marks, URL syntax. */
const EXOTIC = ['', ' ', '\u0000', '\t\n', 'a\ud800b', '\udfff', 'name\u0007', '\u200b', '\u00ad', 'a\u202eb', 'a\u200db', '%', '%25', 'a&b=c', '#', '/', '?', '+', 'Ä', '😀', '<>', 'x y']

/** Strings the schema accepts that `channel` can carry. */
export function validString (schema: Schema, channel: Channel = {}): fc.Arbitrary<string> {
  if (schema.format !== undefined && FORMATS[schema.format] === undefined) throw new Error(`no arbitrary for string format ${String(schema.format)}`)
  const pattern = patternOf(schema)
  const minLength = schema.minLength ?? 0
  const maxLength = Math.max(minLength, Math.min(schema.maxLength ?? 64, 400))
  const keeps = (text: string) => length(text) >= minLength && (schema.maxLength === undefined || length(text) <= schema.maxLength) &&
    (pattern === undefined || pattern.test(text)) && (channel.carries?.(text) ?? true)
  if (schema.format !== undefined) return FORMATS[schema.format]!.filter(keeps)
  // Any code point at all (controls, RTL marks, astral), then kept if the schema agrees;
  // plus plain words, so that valid values are not all exotic.
  const texts = channel.unit === undefined
    ? [fc.string({ unit: 'binary', minLength, maxLength }), fc.string({ unit: 'grapheme', minLength, maxLength }), fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]*$/).map((text) => text.slice(0, maxLength))]
    : [fc.string({ unit: channel.unit, minLength, maxLength })]
  // The longest value allowed, when the schema bounds it: the boundary is where off-by-ones live.
  const longest = schema.maxLength === undefined ? [] : ['x'.repeat(schema.maxLength)].filter(keeps)
  const chosen = pattern === undefined ? texts : [matching(pattern, texts)]
  return fc.oneof(...chosen.map((arbitrary) => ({ arbitrary, weight: 4 })), ...longest.map((text) => ({ arbitrary: fc.constant(text), weight: 1 }))).filter(keeps)
}

function matching (pattern: RegExp, texts: Array<fc.Arbitrary<string>>): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(pattern)
  } catch {
    return fc.oneof(...texts)
  }
}

/**
 * Strings the schema must refuse, each breaking a keyword it declares: a length, the
 * pattern, the format. None when it declares none of them.
 */
export function invalidStrings (schema: Schema): Array<fc.Arbitrary<string>> {
  const choices: Array<fc.Arbitrary<string>> = []
  if (schema.maxLength !== undefined) choices.push(fc.constantFrom('x'.repeat(schema.maxLength + 1), '😀'.repeat(schema.maxLength + 1)))
  if (schema.minLength !== undefined && schema.minLength > 0) choices.push(fc.constant('x'.repeat(schema.minLength - 1)))
  const pattern = patternOf(schema)
  if (pattern !== undefined) {
    const refused = EXOTIC.filter((text) => !pattern.test(text))
    if (refused.length > 0) choices.push(fc.constantFrom(...refused))
  }
  if (schema.format !== undefined) choices.push(fc.constantFrom(...NOT_OF_FORMAT[schema.format] ?? []))
  return choices
}
