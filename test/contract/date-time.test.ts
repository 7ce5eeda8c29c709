/**
 * parseDateTime (src/contract/date-time.ts) reads every text the validator's `date-time`
 * takes, leap seconds as the next second, and agrees with `new Date()` where that reads it.
 */
import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import fc from 'fast-check'
import t from 'tap'
import { parseDateTime } from '../../src/contract/date-time.ts'

const ajv = new Ajv()
addFormats.default(ajv)
const isDateTime = ajv.compile({ type: 'string', format: 'date-time' })

t.test('a leap second is the next second; every form the validator takes is read', async (t) => {
  const cases: Array<[string, string]> = [
    ['2026-06-30T23:59:60Z', '2026-07-01T00:00:00.000Z'],
    ['2026-06-30T23:59:60.25Z', '2026-07-01T00:00:00.250Z'],
    ['2026-07-01T01:59:60+02:00', '2026-07-01T00:00:00.000Z'],
    ['2026-06-30T19:29:60-04:30', '2026-07-01T00:00:00.000Z'],
    ['2016-12-31t23:59:60z', '2017-01-01T00:00:00.000Z'],
    ['9999-12-31T23:59:60Z', '+010000-01-01T00:00:00.000Z'],
    ['2026-12-01 10:00:00+05', '2026-12-01T05:00:00.000Z'],
    ['2026-12-01T10:00:00+0530', '2026-12-01T04:30:00.000Z'],
    ['2026-12-01T10:00:00-00:00', '2026-12-01T10:00:00.000Z'],
    ['2026-12-01T10:00:00.123456789Z', '2026-12-01T10:00:00.123Z'],
    ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
    ['0000-01-01T00:00:00+23:59', '-000001-12-31T00:01:00.000Z']
  ]
  for (const [text, instant] of cases) {
    t.ok(isDateTime(text), `${text} is a date-time to the validator`)
    t.equal(parseDateTime(text).toISOString(), instant, text)
  }
  t.throws(() => parseDateTime('tomorrow'), TypeError, 'what the validator refuses is no date-time here either')
})

t.test('whatever the validator takes is read, and read as new Date() reads it where it can', async (t) => {
  const digits = (minLength: number, maxLength = minLength) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength, maxLength })
  const text = fc.tuple(digits(4), fc.integer({ min: 0, max: 13 }), fc.integer({ min: 0, max: 32 }), fc.constantFrom('T', 't', ' ', '\n'),
    edge(23, 24), edge(59, 60), edge(60, 61), fc.option(digits(1, 9)),
    fc.constantFrom('Z', 'z', '+00:00', '-00:00', '+02:00', '-04:30', '+14:00', '+05', '+0530', '-23:59', '+24:00'))
    .map(([year, month, day, separator, hour, minute, second, fraction, zone]) =>
      `${year}-${pad(month)}-${pad(day)}${separator}${pad(hour)}:${pad(minute)}:${pad(second)}${fraction === null ? '' : `.${fraction}`}${zone}`)
    .filter((candidate) => isDateTime(candidate))
  fc.assert(fc.property(text, (candidate) => {
    const read = parseDateTime(candidate).getTime()
    if (Number.isNaN(read)) throw new Error(`${candidate}: Invalid Date`)
    if (candidate.includes(':60') && read !== parseDateTime(candidate.replace(':60', ':59')).getTime() + 1000) throw new Error(`${candidate}: not the next second`)
    // The ECMAScript form (with `T`) only: anything else `new Date()` reads its own way (`0000-01-01 00:00Z` as 2000).
    const native = candidate[10] === 'T' ? new Date(candidate).getTime() : Number.NaN
    if (!Number.isNaN(native) && native !== read) throw new Error(`${candidate}: ${read}, not ${native}`)
  }), { seed: 20261128, numRuns: 2000 })
})

const pad = (value: number) => String(value).padStart(2, '0')
/** 0 to `max`, and often `often`: a leap second needs 23:59:60 at once. */
const edge = (often: number, max: number) => fc.oneof(fc.constant(often), fc.integer({ min: 0, max }))
