/**
 * The outbox: the repositories write a change's events with `recordEvents`, in the
 * transaction of the change, so a committed change always has its events and a change
 * rolled back (a 409, a failed savepoint of a group commit, a crash before the commit) has
 * none. The events of one call are consecutive in the feed, in the order given.
 *
 * `sequence`, the feed's order, must follow the order the changes commit:
 * - SQLite commits one writer at a time, so numbers taken from `event_sequence` as the
 *   change writes are already in commit order;
 * - PostgreSQL commits concurrent transactions in any order, so the events are written
 *   without a number and numbered once committed (./sequencer.ts).
 */
import { randomBytes } from 'node:crypto'
import { sql, SqliteAdapter, type Kysely } from 'kysely'
import { stringify } from 'lossless-json'
import { prepare } from '../../database/prepared.ts'
import type { Database } from '../../database/schema.ts'
import type { EventType } from './types.ts'

export interface NewEvent {
  type: EventType
  /** The resource after the change, as its get operation answers it (for a cancelled order: as it was). */
  data: object
  /** `*.updated` only: the changed fields, as they were (see `changedFields`). */
  previous?: object
}

type EventValues = {
  id: string
  sequence: bigint | null
  type: string
  occurredAt: string
  data: string
  previous: string | null
}

const insertEvent = prepare<EventValues, never>((db, param) =>
  db.insertInto('events').values({
    id: param('id'),
    sequence: param('sequence'),
    type: param('type'),
    occurred_at: param('occurredAt'),
    data: param('data'),
    previous: param('previous')
  }))

const takeNumbers = prepare<{ count: number }, { last: bigint | number | string }>((db, param) =>
  db.updateTable('event_sequence').set({ last: sql`last + ${param('count')}` }).where('id', '=', 1).returning('last'))

/** A new event id: `evt_` and 128 random bits. */
export function newEventId (): string {
  return `evt_${randomBytes(16).toString('base64url')}`
}

/** Writes `events`, one change's, in the transaction `db`. */
export async function recordEvents (db: Kysely<Database>, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return
  const occurredAt = new Date().toISOString()
  let next: bigint | null = null
  if (db.getExecutor().adapter instanceof SqliteAdapter) {
    const { rows } = await takeNumbers(db, { count: events.length })
    next = BigInt(rows[0]!.last) - BigInt(events.length) + 1n
  }
  for (const event of events) {
    await insertEvent(db, {
      id: newEventId(),
      sequence: next,
      type: event.type,
      occurredAt,
      data: stringify(event.data)!,
      previous: event.previous === undefined ? null : stringify(event.previous)!
    })
    if (next !== null) next++
  }
}

/**
 * The fields whose value differs between `before` and `after`, each with its value in
 * `before` (`null` where it had none), or undefined when nothing changed: what a
 * `*.updated` event carries as `previous`, whatever fields the resource has.
 */
export function changedFields (before: object, after: object): Record<string, unknown> | undefined {
  const was = before as Record<string, unknown>
  const is = after as Record<string, unknown>
  const changed: Record<string, unknown> = {}
  for (const field of new Set([...Object.keys(was), ...Object.keys(is)])) {
    if (stringify(was[field]) !== stringify(is[field])) changed[field] = was[field] ?? null
  }
  return Object.keys(changed).length === 0 ? undefined : changed
}
