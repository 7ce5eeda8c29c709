/**
 * Events in the database, as the feed reads them: by `sequence`, which only a committed,
 * numbered event has (./outbox.ts), so a page never holds an event before one that could
 * still commit with a lower number.
 */
import type { Kysely } from 'kysely'
import { prepare } from '../../database/prepared.ts'
import type { Database, EventRow } from '../../database/schema.ts'
import type { EventEnvelope } from '../../contract/webhooks.ts'
import { parseJson } from '../../http/json.ts'
import { toApiInt } from '../../http/int64.ts'
import type { EventType } from './types.ts'

type Id = number | bigint

const selectPage = prepare<{ after: Id, limit: number }, EventRow>((db, param) =>
  db.selectFrom('events').selectAll()
    .where('sequence', '>', param('after'))
    .orderBy('sequence').limit(param('limit')))

// Served by the (type, sequence) index.
const selectPageOfType = prepare<{ after: Id, limit: number, type: string }, EventRow>((db, param) =>
  db.selectFrom('events').selectAll()
    .where('type', '=', param('type'))
    .where('sequence', '>', param('after'))
    .orderBy('sequence').limit(param('limit')))

const selectEvent = prepare<{ id: string }, EventRow>((db, param) =>
  db.selectFrom('events').selectAll().where('id', '=', param('id')).where('sequence', 'is not', null))

/**
 * JSON the service stored, read back digit for digit. Only a number of 16 digits or more
 * can be beyond what a double holds (an int64 past 2^53): without one, JSON.parse is
 * exact, and several times faster than the exact parser, which reads the rest.
 */
function readStored (text: string): unknown {
  return /\d{16}/.test(text) ? parseJson(text) : JSON.parse(text)
}

/** The event a row holds, in the envelope's shape: its JSON read back digit for digit. */
export function toEnvelope (row: EventRow): EventEnvelope {
  const envelope: EventEnvelope = {
    id: row.id,
    type: row.type,
    timestamp: row.occurred_at,
    sequence: toApiInt(row.sequence!),
    data: readStored(row.data)
  }
  if (row.previous !== null) envelope.previous = readStored(row.previous)
  return envelope
}

export interface FeedQuery {
  /** Only events numbered after this; 0 for the start of the feed. */
  after: Id
  limit: number
  type?: EventType
}

/** Up to `limit` events after `after`, oldest first. */
export async function listEvents (db: Kysely<Database>, query: FeedQuery): Promise<EventEnvelope[]> {
  const { rows } = query.type === undefined
    ? await selectPage(db, { after: query.after, limit: query.limit })
    : await selectPageOfType(db, { after: query.after, limit: query.limit, type: query.type })
  return rows.map(toEnvelope)
}

export async function findEvent (db: Kysely<Database>, id: string): Promise<EventEnvelope | undefined> {
  const row = (await selectEvent(db, { id })).rows[0]
  return row === undefined ? undefined : toEnvelope(row)
}
