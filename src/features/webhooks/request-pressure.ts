/**
 * Whether the API's requests keep this instance busy: over the last window, its event loop
 * was busy most of the time, and requests were answered in it. Deliveries are then made at
 * a slower pace (./dispatcher.ts, `busyClaimGapMs`): no client waits on them, and each one
 * made meanwhile takes the event loop, and the database, from the requests (a delivery
 * never delays an API request: docs/decisions.md#delivery). Busy with deliveries alone,
 * with no request answered, is not busy: a backlog is then delivered at full speed.
 */
import { performance, type EventLoopUtilization } from 'node:perf_hooks'

/** How long a look at the event loop's utilization holds. */
const WINDOW_MS = 100
/** The share of a window the event loop was busy from which the requests come first. */
const BUSY_SHARE = 0.8

/** What this reads of the event loop: Node's own, or a test's. */
export type LoopClock = Pick<typeof performance, 'now' | 'eventLoopUtilization'>

export class RequestPressure {
  readonly #loop: LoopClock
  #since: EventLoopUtilization
  #lookedAt: number
  #loopBusy = false
  #answeredAt = Number.NEGATIVE_INFINITY

  constructor (loop: LoopClock = performance) {
    this.#loop = loop
    this.#since = loop.eventLoopUtilization()
    this.#lookedAt = loop.now()
  }

  /** A request was answered. */
  answered (): void {
    this.#answeredAt = this.#loop.now()
  }

  busy (): boolean {
    const now = this.#loop.now()
    if (now - this.#lookedAt >= WINDOW_MS) {
      const utilization = this.#loop.eventLoopUtilization()
      this.#loopBusy = this.#loop.eventLoopUtilization(utilization, this.#since).utilization >= BUSY_SHARE
      this.#since = utilization
      this.#lookedAt = now
    }
    return this.#loopBusy && now - this.#answeredAt < WINDOW_MS
  }
}
