/**
 * The publisher's side of the database (./publisher.ts): the lease that lets one instance
 * at a time publish to a destination, the position it has reached, and the events after it.
 *
 * Each statement says again what it relies on (the lease's holder, or that the lease has
 * passed), so two instances taking the lease at once, or an instance whose lease passed
 * while it was paused, change nothing they no longer hold: on PostgreSQL the update checks
 * the row as the other's update left it; SQLite has one writer.
 */
import { sql, type Kysely } from 'kysely'
import { isPostgres } from '../../database/connect.ts'
import { write } from '../../database/group-commit.ts'
import type { Database, EventRow } from '../../database/schema.ts'

/** A lease taken or renewed: the position it publishes from. */
export interface Held {
  position: bigint
}

/**
 * Takes the lease of `destination` for `holder` until `until`, or renews it: the position
 * to publish from, or undefined while another instance holds a lease that has not passed.
 * A destination never seen starts before the oldest event kept.
 */
export async function holdLease (db: Kysely<Database>, destination: string, holder: string, now: Date, until: Date): Promise<Held | undefined> {
  return write(db, async (db) => {
    await db.insertInto('event_stream_positions')
      .values({ destination, position: 0, holder: null, lease_until: null })
      .onConflict((conflict) => conflict.column('destination').doNothing())
      .execute()
    const row = await db.updateTable('event_stream_positions')
      .set({ holder, lease_until: until.toISOString() })
      .where('destination', '=', destination)
      .where((where) => where.or([
        where('holder', '=', holder),
        where('lease_until', 'is', null),
        where('lease_until', '<', now.toISOString())
      ]))
      .returning('position')
      .executeTakeFirst()
    return row === undefined ? undefined : { position: BigInt(row.position) }
  })
}

/**
 * Moves the position from `from` to `to` and renews the lease, if `holder` still holds it
 * and the position is still `from`: whether it did. An instance that lost its lease stops,
 * and the new holder publishes from the position stored, again what the old one published
 * after it (the consumers' dedup); a position an operator moved (a replay) is read again.
 */
export async function advance (db: Kysely<Database>, destination: string, holder: string, from: bigint, to: bigint, until: Date): Promise<boolean> {
  const postgres = isPostgres(db)
  const result = await write(db, async (db) => db.updateTable('event_stream_positions')
    .set({ position: to, lease_until: until.toISOString() })
    .where('destination', '=', destination)
    .where('holder', '=', holder)
    .where('position', '=', from)
    // PostgreSQL: the commit does not wait for the disk (this transaction alone, as the
    // webhook claims do): a position lost to a crash of the database server only publishes
    // those events again, with their ids, and its flush no longer queues with the API's writes.
    .$if(postgres, (update) => update.where(sql<boolean>`(select set_config('synchronous_commit', 'off', true)) = 'off'`))
    .executeTakeFirst())
  return result.numUpdatedRows > 0n
}

/** Lets the lease go at once (the service stopping), so another instance takes over without waiting for it to pass. */
export async function releaseLease (db: Kysely<Database>, destination: string, holder: string): Promise<void> {
  await write(db, async (db) => db.updateTable('event_stream_positions')
    .set({ holder: null, lease_until: null })
    .where('destination', '=', destination)
    .where('holder', '=', holder)
    .execute())
}

/**
 * Up to `limit` events after `position`, in feed order. Only numbered events have a
 * `sequence` (PostgreSQL numbers them once committed), and once one is visible every lower
 * number is too (../events/sequencer.ts): reading on from the last one published skips none.
 */
export async function eventsAfter (db: Kysely<Database>, position: bigint, limit: number): Promise<EventRow[]> {
  return db.selectFrom('events').selectAll()
    .where('sequence', '>', position)
    .orderBy('sequence').limit(limit)
    .execute()
}

/** The events still to publish after the position of `destination`, and when the oldest of them committed. */
export async function backlog (db: Kysely<Database>, destination: string): Promise<{ count: number, oldest: string | undefined }> {
  const row = await db.selectFrom('event_stream_positions').select('position').where('destination', '=', destination).executeTakeFirst()
  const position = row === undefined ? 0n : BigInt(row.position)
  const counted = await db.selectFrom('events')
    .select((select) => [select.fn.countAll().as('count'), select.fn.min('occurred_at').as('oldest')])
    .where('sequence', '>', position)
    .executeTakeFirstOrThrow()
  return { count: Number(counted.count), oldest: counted.oldest ?? undefined }
}
