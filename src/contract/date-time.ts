/**
 * A request's `date-time` as a Date. The validator (ajv-formats) takes RFC 3339's leap
 * second (`23:59:60`, in UTC) and a few forms beyond RFC 3339 (`+05`, `+0530`, a space or
 * `t` for `T`), which `new Date()` reads as an Invalid Date, a 500 at its first use. Every
 * form the validator takes is read here; a leap second as the next second, as a Date has
 * no 61st second.
 */

// The grammar of ajv-formats' `date-time`; the validator has checked the ranges.
const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[Tt\s](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:[Zz]|([+-])(\d\d)(?::?(\d\d))?)$/

export function parseDateTime (text: string): Date {
  const match = DATE_TIME.exec(text)
  if (match === null) throw new TypeError(`not a date-time: ${text.slice(0, 60)}`)
  const [, year, month, day, hour, minute, second, fraction = '', sign, offsetHours = '0', offsetMinutes = '0'] = match
  const offset = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes))
  const date = new Date(0)
  // Not Date.UTC, which reads the years 0 to 99 as 1900 to 1999. Fields past their range
  // carry over: second 60 into the next minute, the offset's minutes into the hours and days.
  date.setUTCFullYear(Number(year), Number(month) - 1, Number(day))
  date.setUTCHours(Number(hour), Number(minute) - offset, Number(second), Number(fraction.padEnd(3, '0').slice(0, 3)))
  return date
}
