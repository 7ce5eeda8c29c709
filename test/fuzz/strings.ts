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

/** A time zone as RFC 3339 writes it (`Z`, `+02:00`), or as the validator also takes it (`z`, `+05`, `+0530`). */
function zone (minutes: number, form: 'colon' | 'hours' | 'compact' | 'lower'): string {
  if (minutes === 0 && form !== 'hours') return form === 'lower' ? 'z' : 'Z'
  const hhmm = new Date(Math.abs(minutes) * 60_000).toISOString().slice(11, 16)
  const text = form === 'hours' ? hhmm.slice(0, 2) : form === 'compact' ? hhmm.replace(':', '') : hhmm
  return (minutes < 0 ? '-' : '+') + text
}

/**
 * Date-times in every form the validator's `date-time` takes: `T`, `t` or a space, `Z` or an
 * offset, with or without fractions of a second, and leap seconds (23:59:60 in UTC, so
 * 01:59:60+02:00), which no Date holds and `new Date()` reads as invalid.
 */
const dateTime = fc.tuple(
  // A day clear of the ends of years 1 and 9999, where an offset would move it out of four digits.
  fc.date({ min: new Date('0001-01-02T00:00:00Z'), max: new Date('9999-12-30T23:59:59Z'), noInvalidDate: true }),
  fc.constantFrom(0, 120, -330, 840, 300),
  fc.constantFrom('colon', 'colon', 'hours', 'compact', 'lower') as fc.Arbitrary<Parameters<typeof zone>[1]>,
  fc.constantFrom('T', 'T', 't', ' '),
  fc.boolean(),
  fc.constantFrom(false, false, false, true)
).map(([date, offset, form, separator, fraction, leap]) => {
  const hours = form === 'hours' ? Math.trunc(offset / 60) * 60 : offset
  // The wall-clock time at the offset; for a leap second, the last minute of the UTC day.
  const wall = new Date((leap ? new Date(date).setUTCHours(23, 59, 0, date.getUTCMilliseconds()) : date.getTime()) + hours * 60_000).toISOString()
  const seconds = leap ? '60' : wall.slice(17, 19)
  return `${wall.slice(0, 10)}${separator}${wall.slice(11, 17)}${seconds}${fraction ? wall.slice(19, 23) : ''}${zone(hours, form)}`
})

const FORMATS: Record<string, fc.Arbitrary<string>> = {
  'date-time': dateTime,
  date: dateTime.map((text) => text.slice(0, 10)),
  uuid: fc.uuid(),
  email: fc.emailAddress(),
  uri: fc.webUrl()
}

/** Strings of a format that are not of it, by format. */
const NOT_OF_FORMAT: Record<string, string[]> = {
  'date-time': ['tomorrow', '2026-02-30T10:00:00Z', '2026-12-01', '2026-12-01T10:00:00', '2026-12-01T25:00:00Z', '2026-12-01 10:00Z', '2026-06-30T12:59:60Z', '2026-06-30T23:59:61Z', ''],
  date: ['2026-02-30', '2026-13-01', '20261201', '2026-12-01T10:00:00Z', ''],
  uuid: ['not-a-uuid', '123e4567-e89b-12d3-a456-42661417400', ''],
  email: ['no-at-sign', '@example.com', 'a@', ''],
  uri: ['not a uri', '//no-scheme', '']
}

/** Texts that break patterns: controls, lone surrogates, invisible and bidirectional marks, URL syntax. */
const EXOTIC = ['', ' ', '\u0000', '\t\n', 'a\ud800b', '\udfff', 'name\u0007', '\u200b', '\u00ad', 'a\u202eb', 'a\u200db', '%', '%25', 'a&b=c', '#', '/', '?', '+', 'Ä', '😀', '<>', 'x y']

/**
 * Any code point, and now and then a NUL or a lone surrogate: a JSON body carries both
 * (`\u0000`, `\ud800`), and they are what a database stores altered, or not at all.
 */
const ANY_UNIT = fc.oneof(
  { arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }), weight: 18 },
  { arbitrary: fc.constant('\u0000'), weight: 1 },
  { arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((unit) => String.fromCharCode(unit)), weight: 1 }
)

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
    ? [fc.string({ unit: ANY_UNIT, minLength, maxLength }), fc.string({ unit: 'grapheme', minLength, maxLength }), fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]*$/).map((text) => text.slice(0, maxLength))]
    : [fc.string({ unit: channel.unit, minLength, maxLength })]
  // The longest values allowed (in code points, which an astral character is one of), and a
  // long one where nothing bounds it: the boundary is where off-by-ones live. And the texts
  // that break patterns, wherever the schema takes them.
  const longest = schema.maxLength === undefined ? ['x'.repeat(10_000)] : ['x'.repeat(schema.maxLength), '😀'.repeat(schema.maxLength)]
  const edges = [...longest, ...EXOTIC].filter(keeps)
  const chosen = pattern === undefined ? texts : [matching(pattern, texts)]
  return fc.oneof(...chosen.map((arbitrary) => ({ arbitrary, weight: 4 })), ...edges.length === 0 ? [] : [{ arbitrary: fc.constantFrom(...edges), weight: 2 }]).filter(keeps)
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
 * pattern, the format; those `channel` can carry. None when it declares none of them.
 */
export function invalidStrings (schema: Schema, channel: Channel = {}): Array<fc.Arbitrary<string>> {
  const lists: string[][] = []
  if (schema.maxLength !== undefined) lists.push(['x'.repeat(schema.maxLength + 1), '😀'.repeat(schema.maxLength + 1)])
  if (schema.minLength !== undefined && schema.minLength > 0) lists.push(['x'.repeat(schema.minLength - 1)])
  const pattern = patternOf(schema)
  if (pattern !== undefined) lists.push(EXOTIC.filter((text) => !pattern.test(text)))
  if (schema.format !== undefined) lists.push(NOT_OF_FORMAT[schema.format] ?? [])
  // Filtered here, not by the caller: an arbitrary that never yields a value it keeps never ends.
  const carried = lists.map((texts) => texts.filter((text) => channel.carries?.(text) ?? true)).filter((texts) => texts.length > 0)
  return carried.map((texts) => fc.constantFrom(...texts))
}
