/**
 * The deliveries of a change's events, written with them in the transaction of the change
 * (the outbox, ../events/outbox.ts): one `pending` row per event and per endpoint that is
 * enabled and selects the event's type at that moment, due at once. So a committed change
 * has its deliveries as surely as its events, and a change rolled back has neither. An
 * endpoint added later never receives what committed before it existed.
 *
 * An endpoint's selections are rows of `webhook_subscriptions` (the type, `pet.*`, or
 * `*`), so the endpoints of an event are found by index with the event's own three
 * possible selections; with no endpoint at all, the statement finds nothing and writes
 * nothing.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { resourceSelection } from '../../contract/webhooks.ts'
import { prepare, type Param, type PreparedQuery } from '../../database/prepared.ts'
import type { Database } from '../../database/schema.ts'

/** An event as its deliveries need it. */
export interface DeliveredEvent {
  id: string
  type: string
  occurredAt: string
}

/** The rows of one event's deliveries, as a select; `distinct`, as an endpoint may select a type twice (`pet.created` and `pet.*`). */
function deliveriesOf (id: unknown, type: unknown, selection: unknown, at: unknown): RawBuilder<unknown> {
  return sql`select distinct s.endpoint_id, cast(${id} as text), 1, 1, 'pending', cast(${at} as text)
    from webhook_subscriptions s join webhook_endpoints e on e.id = s.endpoint_id
    where s.selection in (${type}, ${selection}, '*') and e.enabled = 1`
}

const COLUMNS = sql`webhook_deliveries (endpoint_id, event_id, attempt, first_attempt, outcome, next_attempt_at)`

const inserts = new Map<number, PreparedQuery<Record<string, string>, never>>()

/** One statement for the deliveries of `count` events, compiled once for each count. */
function insertOf (count: number): PreparedQuery<Record<string, string>, never> {
  let insert = inserts.get(count)
  if (insert === undefined) {
    insert = prepare<Record<string, string>, never>((db, param) => {
      const selects = Array.from({ length: count }, (_, i) => deliveriesOf(param(`id${i}`), param(`type${i}`), param(`selection${i}`), param(`at${i}`)))
      return { compile: () => sql<never>`insert into ${COLUMNS} ${sql.join(selects, sql` union all `)}`.compile(db) }
    })
    inserts.set(count, insert)
  }
  return insert
}

/** Writes the deliveries of `events`, one change's, in its transaction `db`. */
export async function recordDeliveries (db: Kysely<Database>, events: readonly DeliveredEvent[]): Promise<void> {
  if (events.length === 0) return
  const values: Record<string, string> = {}
  events.forEach((event, i) => {
    values[`id${i}`] = event.id
    values[`type${i}`] = event.type
    values[`selection${i}`] = resourceSelection(event.type)
    values[`at${i}`] = event.occurredAt
  })
  await insertOf(events.length)(db, values)
}

/** The values `deliveriesOfCreated` binds, besides the events' own (../events/outbox.ts). */
export type CreatedDeliveryValues = { eventSelection: string }

/**
 * PostgreSQL: the insert of created rows' deliveries, as a `with` of the statement that
 * writes the rows and their events (../events/outbox.ts, `insertCreated`), in the same
 * round trip, from the events' values in its `with` named `event_input`, all of type
 * `eventType`. The foreign key to the event is checked at the end of the statement,
 * once the events are in.
 */
export function deliveriesOfCreated (param: Param<{ eventType: string } & CreatedDeliveryValues>): RawBuilder<never> {
  // In parentheses: Kysely adds none around a raw `with`.
  return sql<never>`(insert into ${COLUMNS} select distinct s.endpoint_id, e.event_id, 1, 1, 'pending', e.occurred_at
    from event_input e, webhook_subscriptions s join webhook_endpoints en on en.id = s.endpoint_id
    where s.selection in (cast(${param('eventType')} as text), cast(${param('eventSelection')} as text), '*') and en.enabled = 1)`
}
