/**
 * Durations as the keys command takes them (`--expires-in 30d`, `--grace 1h`): a whole
 * number of minutes, hours or days.
 */
const UNIT_MS: Readonly<Record<string, number>> = { m: 60_000, h: 3_600_000, d: 86_400_000 }

/** The longest duration taken: a key that lasts longer than a century may as well never expire. */
const MAX_DAYS = 36_500

export class DurationError extends Error {}

/**
 * The milliseconds of `text` (`45m`, `12h`, `30d`), given for `option`; `0` (without a
 * unit) only where `zero` allows it.
 */
export function parseDuration (option: string, text: string, { zero = false } = {}): number {
  if (zero && text === '0') return 0
  const match = /^([1-9]\d{0,7})([mhd])$/.exec(text)
  const ms = match === null ? NaN : Number(match[1]) * UNIT_MS[match[2]!]!
  if (!(ms <= MAX_DAYS * UNIT_MS.d!)) {
    throw new DurationError(`${option} ${JSON.stringify(text)} is not a duration: a whole number of minutes, hours or days up to ${MAX_DAYS}d, as in 45m, 12h or 30d${zero ? ', or 0' : ''}`)
  }
  return ms
}
