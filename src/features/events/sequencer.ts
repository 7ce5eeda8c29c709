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
 * A pass runs when this instance answers a write, and every second besides, for the events
 * of an instance that stopped before numbering its own. A pass that numbered events
 * notifies every instance (`NOTIFY petstore_events`), and their waiting readers read again.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from '../../database/schema.ts'

export const EVENTS_CHANNEL = 'petstore_events'

/** One numbering pass: how many events it numbered. */
export async function numberCommittedEvents (db: Kysely<Database>): Promise<number> {
  // Most calls find nothing to do: an index-only look at the partial index, and no lock.
  const { rows } = await sql<{ pending: boolean }>`select exists (select 1 from events where sequence is null) as pending`.execute(db)
  if (rows[0]?.pending !== true) return 0
  return db.transaction().execute(async (trx) => {
    // Waits for a pass running elsewhere. What follows is a new statement, so it sees what
    // that pass committed (READ COMMITTED takes a snapshot per statement).
    const counter = await sql<{ last: string }>`select last from event_sequence where id = 1 for update`.execute(trx)
    const last = counter.rows[0]!.last
    const numbered = await sql<{ count: string }>`
      with unnumbered as (
        select position, min(position) over (partition by transaction_id) as first_position
        from events where sequence is null
      ), numbers as (
        select position, row_number() over (order by first_position, position) as n from unnumbered
      ), numbered as (
        update events set sequence = cast(${last} as bigint) + numbers.n
        from numbers where events.position = numbers.position
        returning 1
      )
      select count(*) as count from numbered`.execute(trx)
    const count = Number(numbered.rows[0]!.count)
    if (count > 0) {
      await sql`update event_sequence set last = last + ${count} where id = 1`.execute(trx)
      // Delivered when this commits: every instance's readers read again.
      await sql`select pg_notify(${EVENTS_CHANNEL}, '')`.execute(trx)
    }
    return count
  })
}

/** Runs numbering passes on demand, one at a time: a demand during a pass runs one more after it. */
export class Sequencer {
  #running: Promise<void> | undefined
  #again = false

  constructor (
    private readonly db: Kysely<Database>,
    private readonly numbered: (count: number) => void,
    private readonly failed: (error: unknown) => void
  ) {}

  /** Events may have committed: a pass soon. */
  poke (): void {
    if (this.#running !== undefined) {
      this.#again = true
      return
    }
    this.#running = this.#run().finally(() => { this.#running = undefined })
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
        const count = await numberCommittedEvents(this.db)
        if (count > 0) this.numbered(count)
      } catch (error) {
        // The next demand or the next second tries again; nothing is lost meanwhile.
        this.failed(error)
        return
      }
    } while (this.#again)
  }
}
