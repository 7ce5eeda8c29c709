/**
 * The outbox: the repositories write a change's events with `recordEvents`, in the
 * transaction of the change, so a committed change always has its events and a change
 * rolled back (a 409, a failed savepoint of a group commit, a crash before the commit) has
 * none. The events of one call are consecutive in the feed, in the order given.
 *
 * `sequence`, the feed's order, must follow the order the changes commit:
 * - SQLite commits one writer at a time, so the numbers SQLite gives the rows as the change
 *   writes them are already in commit order;
 * - PostgreSQL commits concurrent transactions in any order, so the events are written
 *   without a number and numbered once committed (./sequencer.ts).
 */
import { randomFillSync } from 'node:crypto'
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { stringify } from 'lossless-json'
import { prepare, type Param, type PreparedQuery } from '../../database/prepared.ts'
import type { Database } from '../../database/schema.ts'
import { resourceSelection } from '../../contract/webhooks.ts'
import { deliveriesOfCreated, recordDeliveries, type CreatedDeliveryValues } from '../webhooks/subscribers.ts'
import { activeTraceparent } from '../../tracing/trace-context.ts'
import type { EventType } from './types.ts'

export interface NewEvent {
  type: EventType
  /** The resource after the change, as its get operation answers it (for a cancelled order: as it was). */
  data: object
  /** `*.updated` only: the changed fields, as they were (see `changedFields`). */
  previous?: object
}

// No sequence given: SQLite numbers the rows as it inserts them; PostgreSQL leaves them to
// be numbered once committed (./sequencer.ts). One statement for all of a change's events
// (an order placed has two), compiled once for each count.
const insertEvents = new Map<number, PreparedQuery<Record<string, string | null>, never>>()

function insertOf (count: number): PreparedQuery<Record<string, string | null>, never> {
  let insert = insertEvents.get(count)
  if (insert === undefined) {
    insert = prepare<Record<string, string | null>, never>((db, param) =>
      db.insertInto('events').values(Array.from({ length: count }, (_, i) => ({
        id: param(`id${i}`),
        type: param(`type${i}`),
        occurred_at: param(`occurredAt${i}`),
        data: param(`data${i}`),
        previous: param(`previous${i}`),
        trace_context: param('traceContext')
      }))))
    insertEvents.set(count, insert)
  }
  return insert
}

let lastIdTime = 0
const randomPool = Buffer.alloc(4096)
let randomOffset = randomPool.length
/**
 * A new event id: `evt_` and 16 bytes, the first 6 the time in milliseconds and the other 10
 * random. Unique as random ones are, and in the order written, so the id index grows at
 * its end rather than at random places.
 */
export function newEventId (): string {
  const id = Buffer.allocUnsafe(16)
  lastIdTime = Math.max(Date.now(), lastIdTime)
  id.writeUIntBE(lastIdTime, 0, 6)
  // Random bytes taken from a buffer filled 4 KiB at a time: one call for the random source
  // per 409 ids rather than per id, which cost more than the rest of an id (ids are no secret).
  if (randomOffset + 10 > randomPool.length) {
    randomFillSync(randomPool)
    randomOffset = 0
  }
  randomPool.copy(id, 6, randomOffset, randomOffset + 10)
  randomOffset += 10
  return `evt_${id.toString('base64url')}`
}

/** Writes `events`, one change's, and their webhook deliveries, in the transaction `db`. */
export async function recordEvents (db: Kysely<Database>, events: readonly NewEvent[]): Promise<void> {
  if (events.length === 0) return
  const occurredAt = new Date().toISOString()
  const values: Record<string, string | null> = { traceContext: activeTraceparent() }
  const written = events.map((event, i) => {
    const id = newEventId()
    values[`id${i}`] = id
    values[`type${i}`] = event.type
    values[`occurredAt${i}`] = occurredAt
    values[`data${i}`] = stringify(event.data)!
    values[`previous${i}`] = event.previous === undefined ? null : stringify(event.previous)!
    return { id, type: event.type, occurredAt }
  })
  await insertOf(events.length)(db, values)
  await recordDeliveries(db, written)
}

/** One created row's event, but for the id: see `createdEvents`. */
export interface CreatedEvent {
  eventId: string
  occurredAt: string
  /** The event's data as JSON, after `{"id":N`: the other fields, each after a comma, and the closing brace. */
  eventFields: string
  traceContext: string | null
}

/**
 * The values of a created row's event, for `createdEvents`: `data` is the new resource as
 * its get operation will answer it, but for the id, which the database gives it in the
 * statement itself (any id here is left out). Made in the request's own context, so the
 * event keeps its trace whichever request's turn writes it.
 */
export function createdEvent (data: object): CreatedEvent {
  const { id: _id, ...fields } = data as Record<string, unknown>
  const json = stringify(fields)!
  return {
    eventId: newEventId(),
    occurredAt: new Date().toISOString(),
    eventFields: json === '{}' ? '}' : `,${json.slice(1)}`,
    traceContext: activeTraceparent()
  }
}

/** The events' values `insertCreated` binds: one item per created row. */
export type CreatedEventsValues = {
  eventType: string
  eventIds: string[]
  occurredAts: string[]
  eventFields: string[]
  traceContexts: Array<string | null>
} & CreatedDeliveryValues

/** The events of rows created together, all of type `type`, as `insertCreated` binds them. */
export function createdEvents (type: EventType, events: readonly CreatedEvent[]): CreatedEventsValues {
  return {
    eventType: type,
    eventSelection: resourceSelection(type),
    eventIds: events.map((event) => event.eventId),
    occurredAts: events.map((event) => event.occurredAt),
    eventFields: events.map((event) => event.eventFields),
    traceContexts: events.map((event) => event.traceContext)
  }
}

/** A column of rows created together (`insertCreated`): its name, its PostgreSQL type, and the list of its values. */
export interface CreatedColumn {
  name: string
  type: 'text' | 'bigint'
  /** What binds one value for each row (`param` of the statement's values), `null` where a row has none. */
  values: unknown
}

/**
 * PostgreSQL: one statement that inserts rows into `table` with `columns`, one row for each
 * created event, and the rows' events and the events' webhook deliveries
 * (../webhooks/subscribers.ts, `deliveriesOfCreated`): atomic by itself, in one round trip
 * however many rows it creates, where a transaction of two inserts for each row takes four
 * (the round trips, not the inserts, are most of a create's cost there). It answers the new
 * rows' `id` and `columns` in the order given, and writes the events in that order, so the
 * feed has them so. The parts of the statement name each other (`input`, `event_input`,
 * `created`, `numbered`): all of them are written here, but for `event_input`, which
 * `deliveriesOfCreated` reads.
 */
export function insertCreated<R> (table: 'pets', columns: readonly CreatedColumn[], param: Param<CreatedEventsValues>): RawBuilder<R> {
  const names = sql.join(columns.map((column) => sql.id(column.name)))
  const lists = sql.join(columns.map((column) => sql`cast(${column.values} as ${sql.raw(column.type)}[])`))
  // The ids go up in the order the rows are inserted, so their rank by id is their place.
  return sql<R>`with input as (select * from unnest(${lists}) with ordinality as input (${names}, n)),
    event_input as ${createdEventsInput(param)},
    created as (insert into ${sql.table(table)} (${names}) select ${names} from input order by n returning *),
    numbered as (select created.*, row_number() over (order by created.id) as n from created),
    recorded as ${recordCreated(param)},
    delivered as ${deliveriesOfCreated(param)}
    select id, ${names} from numbered order by n`
}

/**
 * `event_input`: each created row's event values, numbered `n` from 1 in the order given,
 * as the rows are.
 */
function createdEventsInput (param: Param<CreatedEventsValues>): RawBuilder<never> {
  return sql<never>`(select * from unnest(cast(${param('eventIds')} as text[]), cast(${param('occurredAts')} as text[]),
    cast(${param('eventFields')} as text[]), cast(${param('traceContexts')} as text[]))
    with ordinality as event_input (event_id, occurred_at, event_fields, trace_context, n))`
}

/**
 * `recorded`: the events of the rows in `numbered`, in their order. Each event's data is
 * the JSON text made in the service with the id the database gave the row put first: text
 * joined, not JSON PostgreSQL would parse again (its JSON types refuse some strings JSON
 * allows, such as `\u0000`).
 */
function recordCreated (param: Param<CreatedEventsValues>): RawBuilder<never> {
  // In parentheses: Kysely adds none around a raw `with`.
  return sql<never>`(insert into events (id, type, occurred_at, data, trace_context)
    select e.event_id, cast(${param('eventType')} as text), e.occurred_at, '{"id":' || cast(c.id as text) || e.event_fields, e.trace_context
    from numbered c join event_input e on e.n = c.n order by e.n)`
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
