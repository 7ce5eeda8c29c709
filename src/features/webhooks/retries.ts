/**
 * When a failed delivery is tried again (docs/decisions.md#retries):
 * `WEBHOOK_RETRY_DELAYS` lists the waits after each failed attempt, so N delays give N + 1
 * attempts; each wait is lengthened by up to 20% at random, so the deliveries that failed
 * together (a receiver down for a while) do not all come back at the same instant. After
 * the last attempt the delivery has failed, and waits for `recover`.
 */

import { DEFAULTS } from '../../config/defaults.ts'

/** The default: 10 attempts over about three days. */
export const DEFAULT_RETRY_DELAYS = DEFAULTS.webhooks.retryDelays

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `WEBHOOK_RETRY_DELAYS`, in milliseconds; throws naming a part that is not a duration. */
export function parseRetryDelays (text: string): number[] {
  return text.split(',').map((part) => part.trim()).filter((part) => part !== '').map((part) => {
    const match = /^(\d+)(ms|s|m|h|d)$/.exec(part)
    if (match === null) throw new Error(`not a duration (a whole number and ms, s, m, h or d, such as 5s or 2h): ${part}`)
    return Number(match[1]) * UNITS[match[2]!]!
  })
}

/**
 * The wait before the attempt after attempt `attempt` (1 for the first) failed, or
 * undefined when that was the last. A receiver's `Retry-After`, when longer, wins, up to
 * the longest of the delays: it is the receiver's to say, and an absurd one (or one that is
 * no time at all: Infinity) must neither outlast the schedule nor overflow a date.
 */
export function retryDelay (delays: readonly number[], attempt: number, random: () => number = Math.random, retryAfterMs?: number): number | undefined {
  const delay = delays[attempt - 1]
  if (delay === undefined) return undefined
  const jittered = Math.round(delay * (1 + 0.2 * random()))
  return retryAfterMs === undefined ? jittered : Math.max(jittered, Math.min(retryAfterMs, Math.max(...delays)))
}
