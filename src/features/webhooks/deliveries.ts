/**
 * An endpoint's deliveries log, and what changes it besides the dispatcher: disabling the
 * endpoint ends what was still to come, `recover` schedules again what it missed.
 *
 * Each row is one attempt (../../../migrations/20261128000000_create_webhooks.ts): `pending`
 * until it is made, then `succeeded` or `failed`; a failure with a retry left is followed by
 * the next attempt's row.
 */
import { sql, type Kysely, type Selectable } from 'kysely'
import type { components } from '../../../generated/openapi.ts'
import { write } from '../../database/group-commit.ts'
import { prepare } from '../../database/prepared.ts'
import type { Database } from '../../database/schema.ts'
import { toApiInt } from '../../http/int64.ts'
import { toPage, type Page } from '../../contract/paging.ts'

export type WebhookDelivery = components['schemas']['WebhookDelivery']
export type DeliveryRow = Selectable<Database['webhook_deliveries']>
type Id = number | bigint

export function toDelivery (row: DeliveryRow): WebhookDelivery {
  const delivery: WebhookDelivery = {
    id: toApiInt(row.id),
    eventId: row.event_id,
    attempt: Number(row.attempt),
    outcome: row.outcome as WebhookDelivery['outcome']
  }
  if (row.response_status !== null) delivery.responseStatus = Number(row.response_status)
  if (row.error !== null) delivery.error = row.error as WebhookDelivery['error']
  if (row.duration_ms !== null) delivery.durationMs = Number(row.duration_ms)
  if (row.attempted_at !== null) delivery.attemptedAt = row.attempted_at
  if (row.next_attempt_at !== null) delivery.nextAttemptAt = row.next_attempt_at
  return delivery
}

// Served by the (endpoint_id, id) index, read backwards.
const selectPage = prepare<{ endpointId: Id, beforeId: Id, limit: number }, DeliveryRow>((db, param) =>
  db.selectFrom('webhook_deliveries').selectAll()
    .where('endpoint_id', '=', param('endpointId'))
    .where('id', '<', param('beforeId'))
    .orderBy('id', 'desc').limit(param('limit')))

/** Up to `limit` attempts of an endpoint, newest first, before `beforeId` (INT64_MAX: from the newest). */
export async function listDeliveries (db: Kysely<Database>, endpointId: Id, query: { beforeId: Id, limit: number }): Promise<Page<WebhookDelivery>> {
  const { rows } = await selectPage(db, { endpointId, beforeId: query.beforeId, limit: query.limit + 1 })
  return toPage(rows, query.limit, toDelivery)
}

/**
 * Ends the endpoint's pending deliveries, as failed (`endpoint_disabled`), in `db` (the
 * transaction that disables it). An attempt under way (claimed, its lease live) ends as
 * it will, and schedules no retry (./claims.ts).
 */
export async function endPendingDeliveries (db: Kysely<Database>, endpointId: Id, now: Date): Promise<void> {
  const at = now.toISOString()
  await db.updateTable('webhook_deliveries')
    .set({ outcome: 'failed', error: 'endpoint_disabled', next_attempt_at: null })
    .where('endpoint_id', '=', endpointId)
    .where('outcome', '=', 'pending')
    .where((eb) => eb.or([eb('lease_until', 'is', null), eb('lease_until', '<', at)]))
    .execute()
}

const END_OF_YEAR_9999 = Date.parse('9999-12-31T23:59:59.999Z')

export interface Recovery {
  endpointId: Id
  /** Events that committed at or after this instant, and not before the endpoint existed. */
  since: Date
  createdAt: string
  /** The event types the endpoint selects now. */
  types: readonly string[]
  now: Date
  /** Events looked at by one write at most (tests give fewer). */
  batch?: number
}

/**
 * Events one write of a recovery looks at: a recovery over weeks is many short writes, so
 * that the API's writes go between them rather than wait for one long one.
 */
const RECOVERY_BATCH = 1000

/**
 * Schedules again, due now, every event since `since` the endpoint did not receive: its
 * deliveries that failed, and the events of the types it selects that have none (they
 * committed while it was disabled). Not an event it received, nor one whose delivery is
 * still pending. Each continues the numbering of the event's attempts, its retries
 * counted afresh from there. Written a batch of events at a time, in feed order (inside a
 * transaction already, an idempotent request's, all in it). Resolves with how many were
 * scheduled.
 */
export async function recoverDeliveries (db: Kysely<Database>, recovery: Recovery): Promise<number> {
  const from = Math.max(recovery.since.getTime(), Date.parse(recovery.createdAt))
  // Times compare as text, which has four-digit years: a later one (`+010000-01-01T...`,
  // the second after 9999-12-31T23:59:60Z) would sort first, yet no event follows it.
  if (from > END_OF_YEAR_9999) return 0
  const since = new Date(from).toISOString()
  let scheduled = 0
  let after: unknown = -1
  for (;;) {
    const { count, last } = await write(db, async (db) => recoverBatch(db, recovery, since, after))
    scheduled += count
    if (last === undefined) return scheduled
    after = last
  }
}

/** The events after sequence `after` up to a batch of them: how many were scheduled, and the last one's sequence (undefined: no more). */
async function recoverBatch (db: Kysely<Database>, recovery: Recovery, since: string, after: unknown): Promise<{ count: number, last: unknown }> {
  const boundary = await db.selectFrom('events').select('sequence')
    .where('occurred_at', '>=', since).where('sequence', '>', after as number)
    .orderBy('sequence').limit(1).offset((recovery.batch ?? RECOVERY_BATCH) - 1)
    .executeTakeFirst()
  const last = boundary?.sequence ?? undefined
  // The batch's events: after `after`, up to `last`.
  const inBatch = (column: string) => last === undefined
    ? sql<boolean>`${sql.ref(column)} > ${after}`
    : sql<boolean>`${sql.ref(column)} > ${after} and ${sql.ref(column)} <= ${last}`
  const types = recovery.types.length === 0 ? [''] : [...recovery.types]
  const prior = db.selectFrom('webhook_deliveries')
    .select(['event_id', (eb) => eb.fn.max('attempt').as('last'), (eb) => eb.fn.max(sql<number>`case when outcome = 'failed' then 0 else 1 end`).as('received')])
    .where('endpoint_id', '=', recovery.endpointId)
    .where('event_id', 'in', db.selectFrom('events').select('id').where(inBatch('sequence')))
    .groupBy('event_id')
  const next = sql<number>`coalesce(prior.last, 0) + 1`
  const result = await db.insertInto('webhook_deliveries')
    .columns(['endpoint_id', 'event_id', 'attempt', 'first_attempt', 'outcome', 'next_attempt_at'])
    .expression(db.selectFrom('events as ev')
      .leftJoin(prior.as('prior'), 'prior.event_id', 'ev.id')
      .select([
        sql`cast(${recovery.endpointId} as bigint)`.as('endpoint_id'), 'ev.id', next.as('attempt'), next.as('first_attempt'),
        sql`'pending'`.as('outcome'), sql`cast(${recovery.now.toISOString()} as text)`.as('next_attempt_at')
      ])
      .where('ev.occurred_at', '>=', since)
      .where(inBatch('ev.sequence'))
      .where((eb) => eb.or([
        eb.and([eb('prior.event_id', 'is not', null), eb('prior.received', '=', 0)]),
        eb.and([eb('prior.event_id', 'is', null), eb('ev.type', 'in', types)])
      ])))
    .executeTakeFirst()
  return { count: Number(result.numInsertedOrUpdatedRows ?? 0), last }
}

/** The deliveries pending, and how long the oldest due one has waited (for the metrics). */
export async function pendingBacklog (db: Kysely<Database>, now: Date): Promise<{ pending: number, oldestDueSeconds: number }> {
  const row = await db.selectFrom('webhook_deliveries')
    .select((eb) => [eb.fn.countAll().as('pending'), eb.fn.min('next_attempt_at').as('oldest')])
    .where('outcome', '=', 'pending')
    .executeTakeFirstOrThrow()
  const oldest = row.oldest === null ? undefined : Date.parse(row.oldest)
  return { pending: Number(row.pending), oldestDueSeconds: oldest === undefined ? 0 : Math.max(0, (now.getTime() - oldest) / 1000) }
}
