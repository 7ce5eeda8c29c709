/**
 * When a failed delivery is tried again (docs/decisions.md#retries):
 * `WEBHOOK_RETRY_DELAYS` lists the waits after each failed attempt, so N delays give N + 1
 * attempts; each wait is lengthened by up to 20% at random, so the deliveries that failed
 * together (a receiver down for a while) do not all come back at the same instant. After
 * the last attempt the delivery has failed, and waits for `recover`. The delays are read
 * from the variable by ../../config/values.ts.
 */

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
