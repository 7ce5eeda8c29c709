/**
 * The worker that publishes every event to the broker, in feed order: one per instance,
 * of which one at a time publishes, the holder of the destination's lease (./positions.ts).
 *
 * The holder reads the events after the stored position, publishes them in order, and
 * moves the position past those the broker confirmed, and only those: a crash between a
 * publish and the position's update publishes them again from the new holder (the same
 * ids, which JetStream's duplicate window and any consumer's dedup remove). It looks for
 * events when the feed moves (the events plugin's signal: a write here, a numbering pass on
 * any instance) and every `pollIntervalMs`. The others look every `standbyPollMs` whether
 * the lease has passed, and take it once it has (its holder stopped renewing: a crash).
 *
 * A broker that fails (down, refusing, not answering in time) stops nothing else: the
 * events wait in the database, and the publisher tries again after a wait that doubles
 * from `retryMinMs` to `retryMaxMs`, keeping its lease meanwhile. The log says once when
 * publishing stops, and once when it resumes.
 */
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import type { FastifyBaseLogger } from 'fastify'
import type { Kysely } from 'kysely'
import type { EventStreamSettings } from '../../config/settings.ts'
import type { EventEnvelope } from '../../contract/webhooks.ts'
import type { Database } from '../../database/schema.ts'
import { inRootContext } from '../../tracing/trace-context.ts'
import { toEnvelope } from '../events/repository.ts'
import type { Destination } from './destination.ts'
import type { StreamMessage } from './message.ts'
import { advance, eventsAfter, holdLease, releaseLease } from './positions.ts'

/** What tells the publisher that events may have committed (the feed's ChangeSignal). */
export interface Wakeup {
  readonly generation: number
  readonly closed: boolean
  after: (seen: number, ms: number) => Promise<void>
}

export interface PublisherOptions extends Pick<EventStreamSettings, 'leaseMs' | 'standbyPollMs' | 'pollIntervalMs' | 'batchSize' | 'flowGapMs' | 'retryMinMs' | 'retryMaxMs'> {
  destination: Destination
  wakeup: Wakeup
  serialize: (event: EventEnvelope) => string
  log: FastifyBaseLogger
  /** Told of the events the broker confirmed (metrics). */
  published?: (count: number) => void
}

/** How long a stop waits for a publish under way before it closes the broker's connection. */
const STOP_WAIT_MS = 1000

/** Why publishing stopped: the broker, or the database the events and the position are read from. */
type Fault = 'broker' | 'database'

export class Publisher {
  readonly holder = `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`
  #position: bigint | undefined
  /** When the lease was last taken or renewed, and the stored position read. */
  #heldAt = 0
  #failures = 0
  #stopped: { since: number, fault: Fault } | undefined
  /** When the next publish may be tried, after a failure. */
  #retryAt = 0
  #closed = false
  #running: Promise<void> | undefined
  readonly #abort = new AbortController()
  readonly #stopping = new Promise<void>((resolve) => this.#abort.signal.addEventListener('abort', () => resolve(), { once: true }))

  constructor (private readonly db: Kysely<Database>, private readonly options: PublisherOptions) {}

  /** Whether this instance holds the lease, and the position it has published to. */
  get position (): bigint | undefined {
    return this.#position
  }

  start (): void {
    // Started by the service, no request: outside any trace.
    this.#running ??= inRootContext(async () => this.#run())
  }

  /** Stops: the batch under way is confirmed or not, the position kept, the lease let go. */
  async close (): Promise<void> {
    this.#closed = true
    this.#abort.abort()
    // A publish waiting on a broker that stopped answering would hold the stop for its
    // timeout: after a moment, its connection is closed under it, which ends it.
    let ended = false
    const running = this.#running?.finally(() => { ended = true })
    await Promise.race([running, sleep(STOP_WAIT_MS)])
    if (!ended) await this.options.destination.close()
    await running
    if (this.#position !== undefined) {
      await releaseLease(this.db, this.options.destination.name, this.holder).catch((error: unknown) => {
        this.options.log.warn({ err: error }, 'could not let the event stream lease go; another instance takes over once it passes')
      })
    }
    await this.options.destination.close()
  }

  async #run (): Promise<void> {
    while (!this.#closed) {
      try {
        await this.#step()
      } catch (error) {
        // Only the database throws here (the destination reports its failures): the lease
        // and the position are as stored, and the next step reads them again.
        this.#position = undefined
        this.#failed('database', error)
        await this.#pause(this.#backoff() - Date.now())
      }
    }
  }

  async #step (): Promise<void> {
    const { destination, leaseMs } = this.options
    // The lease is renewed with every batch, but the stored position is read again this often
    // besides: an operator may have moved it back, for a replay.
    if (this.#position === undefined || Date.now() - this.#heldAt > leaseMs / 3) {
      const held = await this.#hold()
      if (held === undefined) {
        await this.#pause(this.options.standbyPollMs)
        return
      }
    }
    // Waiting to try the broker again, the lease renewed meanwhile.
    const retryIn = this.#retryAt - Date.now()
    if (retryIn > 0) {
      await this.#pause(Math.min(retryIn, leaseMs / 3))
      return
    }
    const seen = this.options.wakeup.generation
    const rows = await eventsAfter(this.db, this.#position!, this.options.batchSize)
    if (rows.length === 0) {
      this.#resumed()
      // Woken by the feed, or at the latest in time to renew the lease.
      await this.#waitForEvents(seen, Math.min(this.options.pollIntervalMs, leaseMs / 3))
      return
    }
    const messages: StreamMessage[] = rows.map((row) => {
      const envelope = toEnvelope(row)
      return { id: row.id, type: row.type, time: row.occurred_at, body: this.options.serialize(envelope) }
    })
    if (this.#closed) return
    const { confirmed, error } = await destination.publish(messages)
    if (confirmed > 0) {
      const last = BigInt(rows[confirmed - 1]!.sequence!)
      const kept = await advance(this.db, destination.name, this.holder, this.#position!, last, new Date(Date.now() + leaseMs))
      if (!kept) {
        // Another instance holds the lease now, or the position was moved: read again.
        this.#heldAt = 0
        return
      }
      this.#position = last
      this.options.published?.(confirmed)
    }
    if (error !== undefined) {
      this.#failed('broker', error)
      this.#retryAt = this.#backoff()
      return
    }
    this.#resumed()
    // Under a flow of writes, the events of the next few milliseconds make one batch, one
    // read and one position update, rather than one each: they cost the writes less.
    if (rows.length < this.options.batchSize) await this.#pause(this.options.flowGapMs)
  }

  /** Takes or renews the lease: the position, or undefined while another instance holds it. */
  async #hold (): Promise<bigint | undefined> {
    const now = new Date()
    const held = await holdLease(this.db, this.options.destination.name, this.holder, now, new Date(now.getTime() + this.options.leaseMs))
    if (held === undefined) {
      if (this.#position !== undefined) this.#lost()
      return undefined
    }
    const where = { destination: this.options.destination.address, stream: this.options.destination.name, position: String(held.position) }
    if (this.#position === undefined) this.options.log.info(where, 'this instance publishes the events to the event stream')
    else if (held.position < this.#position) this.options.log.info(where, 'the event stream position was moved back; publishing again from there')
    this.#heldAt = now.getTime()
    // The stored position, not this instance's: another may have moved it meanwhile.
    this.#position = held.position
    return held.position
  }

  #lost (): void {
    this.#position = undefined
    this.options.log.info({ stream: this.options.destination.name }, 'another instance took over publishing to the event stream')
  }

  #failed (fault: Fault, error: unknown): void {
    this.#failures++
    if (this.#stopped !== undefined) {
      this.options.log.debug({ err: error, fault }, 'event stream publishing still failing')
      return
    }
    this.#stopped = { since: Date.now(), fault }
    const where = fault === 'broker' ? `the broker at ${this.options.destination.address} failed` : 'the database could not be read or written'
    this.options.log.warn({ err: error, destination: this.options.destination.address, stream: this.options.destination.name, fault },
      `event stream publishing stopped: ${where}; the events wait in the database and are published once it answers`)
  }

  #resumed (): void {
    this.#failures = 0
    this.#retryAt = 0
    if (this.#stopped === undefined) return
    const stoppedMs = Date.now() - this.#stopped.since
    this.#stopped = undefined
    this.options.log.info({ destination: this.options.destination.address, stream: this.options.destination.name, stoppedMs }, 'event stream publishing resumed')
  }

  /**
   * When to try again: after a wait doubling from `retryMinMs` to `retryMaxMs`, up to a
   * fifth more at random, so that instances do not retry in step.
   */
  #backoff (): number {
    const { retryMinMs, retryMaxMs } = this.options
    const base = Math.min(retryMaxMs, retryMinMs * 2 ** Math.min(this.#failures - 1, 30))
    return Date.now() + base * (1 + Math.random() / 5)
  }

  /** Waits `ms`, or less if the service stops. */
  async #pause (ms: number): Promise<void> {
    await sleep(ms, undefined, { signal: this.#abort.signal }).catch(() => {})
  }

  async #waitForEvents (seen: number, ms: number): Promise<void> {
    const { wakeup } = this.options
    // Once the feed's signal has closed (the service stopping) it wakes at once: a plain wait then.
    if (wakeup.closed) return this.#pause(ms)
    await Promise.race([wakeup.after(seen, ms), this.#stopping])
  }
}
