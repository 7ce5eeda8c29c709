/**
 * Events in the database, as the feed reads them: by `sequence`, which only a committed,
 * numbered event has (./outbox.ts), so a page never holds an event before one that could
 * still commit with a lower number.
 */
import { sql, type Kysely } from 'kysely'
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
  /** Only events of these types (those a key may read); undefined: every type. */
  types?: readonly string[]
}

/**
 * The page of events of several types: each type's first `limit` through the (type,
 * sequence) index, then the first `limit` of those. One statement, so one snapshot: read
 * apart, a type read second could show an event numbered after an earlier one the first
 * read missed, and the page would skip it.
 */
async function selectPageOfTypes (db: Kysely<Database>, query: { after: Id, limit: number, types: readonly string[] }): Promise<EventRow[]> {
  const ofType = (type: string, i: number) => sql`select * from (select * from events where type = ${type} and sequence > ${query.after}
    order by sequence limit ${query.limit}) as ${sql.id(`t${i}`)}`
  const union = sql.join(query.types.map(ofType), sql` union all `)
  return (await sql<EventRow>`${union} order by sequence limit ${query.limit}`.execute(db)).rows
}

/** Up to `limit` events after `after`, oldest first. */
export async function listEvents (db: Kysely<Database>, query: FeedQuery): Promise<EventEnvelope[]> {
  const { after, limit, type, types } = query
  if (type !== undefined) return (await selectPageOfType(db, { after, limit, type })).rows.map(toEnvelope)
  if (types === undefined) return (await selectPage(db, { after, limit })).rows.map(toEnvelope)
  if (types.length === 0) return []
  return (await selectPageOfTypes(db, { after, limit, types })).map(toEnvelope)
}

export async function findEvent (db: Kysely<Database>, id: string): Promise<EventEnvelope | undefined> {
  const row = (await selectEvent(db, { id })).rows[0]
  return row === undefined ? undefined : toEnvelope(row)
}
