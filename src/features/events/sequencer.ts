/**
 * PostgreSQL: numbers committed events in commit order. A transaction's events get no
 * `sequence` when written (./outbox.ts), since a number taken then could commit after a
 * higher one and a reader past the higher one would skip it. A numbering pass numbers every
 * event committed so far and not yet numbered, and passes run one at a time across all
 * instances (they lock the `event_sequence` row), each with numbers above the last pass's.
 * So once a reader sees a number, every lower number is committed and visible too: a page
 * never ends before an event that could still appear below it.
 *
 * Within a pass, events go in the order they were written (`position`), a transaction's
 * together: a change made after another committed wrote its events after that one's, so
 * their order is the order of their commits; only changes that committed side by side,
 * between two passes, are ordered by their writing alone.
 *
 * A pass runs when this instance answers a write (under a flow of writes, at most every
 * `gapMs`: see `Sequencer`), and every second besides, for the events of an instance that
 * stopped before numbering its own. A pass that numbered events
 * notifies every instance (`NOTIFY petstore_events`), and their waiting readers read again.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type pg from 'pg'
import { inRootContext } from '../../tracing/trace-context.ts'

export const EVENTS_CHANNEL = 'petstore_events'

// Most passes after a write find events to number, most passes of the poll none: a look
// at the partial index, with no lock and no transaction, spares an idle service a write
// (locking the counter row writes it) every second.
const PENDING = { name: 'petstore_events_pending', text: 'select exists (select 1 from events where sequence is null) as pending' }

// One round trip, in the simple protocol (no values, so several statements), each
// statement with a snapshot of its own (READ COMMITTED, whatever the server's default):
// - the counter row's lock waits for a pass running elsewhere;
// - then the numbering sees what that pass committed, and numbers what is still to number
//   from the counter on, a transaction's events together, in the order they were written;
//   moves the counter past them; and, if it numbered any, notifies every instance, which
//   PostgreSQL delivers when this commits.
const PASS = `begin isolation level read committed;
select 1 from event_sequence where id = 1 for update;
with unnumbered as (
  select position, min(position) over (partition by transaction_id) as first_position
  from events where sequence is null
), numbers as (
  select position, row_number() over (order by first_position, position) as n from unnumbered
), counter as (
  select last from event_sequence where id = 1
), numbered as (
  update events set sequence = counter.last + numbers.n
  from numbers, counter where events.position = numbers.position
  returning 1
), tally as (
  select count(*) as count from numbered
), moved as (
  update event_sequence set last = last + tally.count from tally where id = 1 and tally.count > 0
)
select count, case when count > 0 then pg_notify('${EVENTS_CHANNEL}', '') end from tally;
commit`

/** One numbering pass: how many events it numbered. */
export async function numberCommittedEvents (pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ pending: boolean }>(PENDING)
  if (rows[0]?.pending !== true) return 0
  // A failure on the way leaves the transaction open on its connection, and pg's pool
  // closes a connection whose query failed: the server rolls it back.
  const results = await pool.query(PASS) as unknown as Array<pg.QueryResult<{ count: string }>>
  return Number(results[2]!.rows[0]!.count)
}

/**
 * Runs numbering passes on demand, one at a time: a demand during a pass runs one more after
 * it, `gapMs` after it. Under a steady flow of writes, passes then come at most every
 * `gapMs`, each numbering what committed meanwhile: a pass costs about the same for one
 * event as for a hundred (a transaction, a lock, a commit), and the events join the feed
 * at most that much later. A demand after a quiet spell runs a pass at once.
 */
export class Sequencer {
  #running: Promise<void> | undefined
  #again = false

  constructor (
    private readonly pool: pg.Pool,
    private readonly gapMs: number,
    private readonly numbered: (count: number) => void,
    private readonly failed: (error: unknown) => void
  ) {}

  /** Events may have committed: a pass soon. */
  poke (): void {
    if (this.#running !== undefined) {
      this.#again = true
      return
    }
    // Woken by a write's answer, but numbering every instance's events: outside its trace.
    this.#running = inRootContext(async () => this.#run()).finally(() => { this.#running = undefined })
  }

  /** Resolves once no pass runs or is due, the passes asked for meanwhile done. */
  async settled (): Promise<void> {
    while (this.#running !== undefined) await this.#running
  }

  /** Resolves once no pass runs (the service stopping). */
  async idle (): Promise<void> {
    this.#again = false
    await this.#running
  }

  async #run (): Promise<void> {
    do {
      this.#again = false
      try {
        const count = await numberCommittedEvents(this.pool)
        if (count > 0) this.numbered(count)
      } catch (error) {
        // The next demand or the next second tries again; nothing is lost meanwhile.
        this.failed(error)
        return
      }
      if (this.#again) await sleep(this.gapMs)
    } while (this.#again)
  }
}
