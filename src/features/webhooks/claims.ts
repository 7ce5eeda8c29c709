/**
 * The dispatcher's side of the database (./dispatcher.ts): claiming due deliveries, and
 * recording what came of each attempt.
 *
 * A claim sets `lease_until` on the rows it takes: a row is due when it is pending, its time
 * has come, its lease (if any) has passed, its endpoint is enabled and its event is
 * numbered (on PostgreSQL an event joins the feed, and its `sequence` the body, once
 * numbered). Two instances claiming at once never take the same row: on PostgreSQL the
 * claim is one statement that says again, of each row it updates, that its lease has
 * passed, which PostgreSQL checks again on the row as the other's update left it; SQLite
 * has one writer, and the claim is one write. A crashed instance's rows are due again once
 * their lease passes.
 *
 * Each endpoint has places of its own, an equal part of `concurrency` among the enabled
 * endpoints (at least one, at most `perEndpoint`), and gets at most those not taken by its
 * attempts under way, its oldest due first, read from an index of each endpoint's pending
 * rows. So a slow endpoint's backlog or hanging attempts never take the places of the
 * others', nor make a claim longer; with more endpoints than `concurrency`, each has one.
 * A claim is one statement whatever the number of endpoints.
 */
import { sql, type Kysely, type RawBuilder } from 'kysely'
import { isPostgres } from '../../database/connect.ts'
import { inTransaction, write } from '../../database/group-commit.ts'
import { prepare } from '../../database/prepared.ts'
import type { Database, EventRow } from '../../database/schema.ts'
import { toApiInt } from '../../http/int64.ts'
import { endPendingDeliveries } from './deliveries.ts'

type Id = number | bigint

export interface ClaimQuery {
  now: Date
  leaseUntil: Date
  /** Attempts at once in all, shared equally among the enabled endpoints. */
  concurrency: number
  /** Attempts at once for one endpoint, at most. */
  perEndpoint: number
  /** Attempts under way here, by endpoint id. */
  underWay: ReadonlyMap<string, number>
  /**
   * Whether deliveries are likely due (the last claim took some): the claim is made at once,
   * without the look that spares a claim when none is.
   */
  flowing?: boolean
}

/** A claimed delivery, with what its attempt needs. */
export interface Claimed {
  id: Id
  endpointId: Id
  attempt: number
  firstAttempt: number
  event: EventRow
  url: string
  /** Sealed: the current secret, and the previous one while its grace lasts. */
  secrets: string[]
}

/** What a claim took, and whether an endpoint took every place it had (so more may be due). */
export interface Claim {
  claimed: Claimed[]
  full: boolean
}

type ClaimValues = { now: string, until: string, concurrency: number, perEndpoint: number, underWay: string }

/**
 * Whether delivery `d` is due at `now`: pending, its time come, no live lease. Read through
 * the (endpoint_id, next_attempt_at) index of the pending rows, an endpoint at a time, so
 * a claim takes each endpoint's oldest, whatever the others' backlogs.
 */
function due (now: unknown): RawBuilder<boolean> {
  return sql<boolean>`d.outcome = 'pending' and d.next_attempt_at <= ${now} and (d.lease_until is null or d.lease_until < ${now})`
}

/**
 * The enabled endpoints (`enabled`), and `share`: the places each has, an equal part of
 * `concurrency` among them, at least one and at most `perEndpoint`.
 */
function endpointShares (postgres: boolean, concurrency: unknown, perEndpoint: unknown): RawBuilder<unknown> {
  // SQLite's max and min of several values are PostgreSQL's greatest and least.
  const [greatest, least] = postgres ? [sql`greatest`, sql`least`] : [sql`max`, sql`min`]
  return sql`enabled as (select id from webhook_endpoints where enabled = 1),
    share as (select ${greatest}(1, ${least}(cast(${perEndpoint} as integer), cast(${concurrency} as integer) / ${greatest}(count(*), 1))) as places from enabled)`
}

/** An endpoint's places left, its attempts under way here (`underWay`, a JSON object by id) taken out. */
function placesLeft (underWay: unknown): RawBuilder<number> {
  return sql<number>`greatest(0, share.places - coalesce(cast(cast(${underWay} as jsonb) ->> cast(e.id as text) as integer), 0))`
}

/**
 * PostgreSQL: a condition, always true, that makes the statement's transaction commit
 * without waiting for its WAL to reach the disk (`synchronous_commit = off`, for this
 * transaction alone: `set_config`'s third argument). For the dispatcher's own records, the
 * claims and the successes: no client waits on them, and a commit lost to a crash of the
 * database server only makes a delivery again, with the same `webhook-id`, as at least once
 * allows. Their flushes, one per claim and per batch of successes, otherwise queued with
 * the flushes of the writes the API acknowledges, on the same disk. The log stays whole;
 * the next flush, the next write's, takes their part with it.
 */
const WITHOUT_WAITING_FOR_THE_DISK = sql<boolean>`(select set_config('synchronous_commit', 'off', true)) = 'off'`

/** What an attempt needs of a claimed delivery, its event and its endpoint. */
interface ClaimedRow {
  id: Id
  endpoint_id: Id
  attempt: number | bigint
  first_attempt: number | bigint
  event_id: string
  type: string
  occurred_at: string
  sequence: unknown
  data: string
  previous: string | null
  trace_context: string | null
  url: string
  secret: string
  previous_secret: string | null
  previous_secret_expires_at: string | null
}

/**
 * What the attempts need of the claimed deliveries `d` (the rows of `deliveries`, those
 * `where` keeps), their events and endpoints, in the order they came due; and `also`.
 */
function readClaimed (deliveries: RawBuilder<unknown>, where: RawBuilder<unknown>, also = sql``): RawBuilder<ClaimedRow> {
  return sql<ClaimedRow>`select d.id, d.endpoint_id, d.attempt, d.first_attempt,
      ev.id as event_id, ev.type, ev.occurred_at, ev.sequence, ev.data, ev.previous, ev.trace_context,
      e.url, e.secret, e.previous_secret, e.previous_secret_expires_at${also}
    from ${deliveries} d join events ev on ev.id = d.event_id join webhook_endpoints e on e.id = d.endpoint_id
    ${where}
    order by d.next_attempt_at, d.id`
}

/**
 * PostgreSQL, one statement, one round trip: each enabled endpoint's oldest due deliveries,
 * up to its places left, leased, and what their attempts need, with whether an endpoint
 * took all it had left (`full`). The lease is said again of each row the update takes: a
 * row another instance took meanwhile is passed over when PostgreSQL checks it again.
 */
const claimOnPostgres = prepare<ClaimValues, ClaimedRow & { full: boolean }>((db, param) => ({
  compile: () => sql<ClaimedRow & { full: boolean }>`with ${endpointShares(true, param('concurrency'), param('perEndpoint'))},
    due as (
      select oldest.id, e.id as endpoint_id, ${placesLeft(param('underWay'))} as places_left from enabled e cross join share
      cross join lateral (
        select d.id from webhook_deliveries d join events ev on ev.id = d.event_id
        where d.endpoint_id = e.id and ${due(param('now'))} and ev.sequence is not null
        order by d.next_attempt_at
        limit ${placesLeft(param('underWay'))}
      ) oldest
    ),
    claimed as (
      update webhook_deliveries set lease_until = ${param('until')}
      where id in (select id from due)
      and outcome = 'pending' and (lease_until is null or lease_until < ${param('now')})
      and ${WITHOUT_WAITING_FOR_THE_DISK}
      returning id, endpoint_id, event_id, attempt, first_attempt, next_attempt_at
    )
    ${readClaimed(sql`claimed`, sql``, sql`, exists (select 1 from due group by endpoint_id, places_left having count(*) = places_left) as full`)}`.compile(db)
}))

/**
 * SQLite: each enabled endpoint's oldest due deliveries, up to `perEndpoint` of each, and
 * the places each has (`share`), in one statement; the places left are taken out here.
 */
const dueOnSqlite = prepare<Omit<ClaimValues, 'until' | 'underWay'>, { id: Id, endpoint_id: Id, places: number }>((db, param) => ({
  compile: () => sql<{ id: Id, endpoint_id: Id, places: number }>`with ${endpointShares(false, param('concurrency'), param('perEndpoint'))}
    select d.id, d.endpoint_id, share.places from enabled e cross join share
    join webhook_deliveries d on d.id in (
      select d.id from webhook_deliveries d where d.endpoint_id = e.id and ${due(param('now'))}
      order by d.next_attempt_at limit ${param('perEndpoint')})
    order by d.endpoint_id, d.next_attempt_at`.compile(db)
}))

async function claimOnSqlite (db: Kysely<Database>, values: ClaimValues, underWay: ReadonlyMap<string, number>): Promise<{ taken: Id[], full: boolean }> {
  const taken: Id[] = []
  const count = new Map<string, number>()
  let full = false
  for (const row of (await dueOnSqlite(db, values)).rows) {
    const endpoint = String(row.endpoint_id)
    const left = Number(row.places) - (underWay.get(endpoint) ?? 0) - (count.get(endpoint) ?? 0)
    if (left <= 0) continue
    taken.push(row.id)
    count.set(endpoint, (count.get(endpoint) ?? 0) + 1)
    if (left === 1) full = true
  }
  if (taken.length > 0) await db.updateTable('webhook_deliveries').set({ lease_until: values.until }).where('id', 'in', taken).execute()
  return { taken, full }
}

// A look at the partial index of pending rows, with no lock and no write: most looks find
// nothing (no endpoint, or nothing due), and a claim is a write.
const anyDue = prepare<{ now: string }, { due: unknown }>((db, param) =>
  db.selectNoFrom((eb) => eb.exists(eb.selectFrom('webhook_deliveries').select('id')
    .where('outcome', '=', 'pending').where('next_attempt_at', '<=', param('now'))).as('due')))

/** Claims the due deliveries `query` allows, and reads what their attempts need. */
export async function claimDue (db: Kysely<Database>, query: ClaimQuery): Promise<Claim> {
  const values: ClaimValues = {
    now: query.now.toISOString(),
    until: query.leaseUntil.toISOString(),
    concurrency: query.concurrency,
    perEndpoint: query.perEndpoint,
    underWay: JSON.stringify(Object.fromEntries(query.underWay))
  }
  if (query.flowing !== true) {
    const due = (await anyDue(db, { now: values.now })).rows[0]?.due
    if (due !== true && Number(due) !== 1) return { claimed: [], full: false }
  }
  const { rows, full } = isPostgres(db) ? await claimAndReadOnPostgres(db, values) : await claimAndReadOnSqlite(db, values, query.underWay)
  return { claimed: rows.map(toClaimed(values.now)), full }
}

async function claimAndReadOnPostgres (db: Kysely<Database>, values: ClaimValues): Promise<{ rows: ClaimedRow[], full: boolean }> {
  const { rows } = await claimOnPostgres(db, values)
  return { rows, full: rows.some((row) => row.full) }
}

/** A claimed row as an attempt needs it: the previous secret only while its grace lasts at `now`. */
const toClaimed = (now: string) => (row: ClaimedRow): Claimed => ({
  id: toApiInt(row.id),
  endpointId: toApiInt(row.endpoint_id),
  attempt: Number(row.attempt),
  firstAttempt: Number(row.first_attempt),
  event: { id: row.event_id, type: row.type, occurred_at: row.occurred_at, sequence: row.sequence, data: row.data, previous: row.previous, trace_context: row.trace_context } as EventRow,
  url: row.url,
  secrets: row.previous_secret !== null && row.previous_secret_expires_at !== null && row.previous_secret_expires_at > now
    ? [row.secret, row.previous_secret]
    : [row.secret]
})

/** SQLite: the claim, one write of the group commit, then what the attempts need. */
async function claimAndReadOnSqlite (db: Kysely<Database>, values: ClaimValues, underWay: ReadonlyMap<string, number>): Promise<{ rows: ClaimedRow[], full: boolean }> {
  const { taken, full } = await write(db, async (db) => claimOnSqlite(db, values, underWay))
  if (taken.length === 0) return { rows: [], full }
  return { rows: (await readClaimed(sql`webhook_deliveries`, sql`where d.id in (${sql.join(taken)})`).execute(db)).rows, full }
}

/** Lets deliveries claimed here go at once (the service stopping with attempts under way): another claim may take them. */
export async function releaseClaims (db: Kysely<Database>, ids: readonly Id[]): Promise<void> {
  if (ids.length === 0) return
  await write(db, (db) => db.updateTable('webhook_deliveries').set({ lease_until: null })
    .where('id', 'in', [...ids]).where('outcome', '=', 'pending').execute())
}

export interface Outcome {
  id: Id
  endpointId: Id
  eventId: string
  attempt: number
  firstAttempt: number
  attemptedAt: Date
  status?: number
  error?: string
  durationMs: number
}

const recordSuccess = prepare<{ id: Id, status: number, durationMs: number, attemptedAt: string }, never>((db, param) =>
  db.updateTable('webhook_deliveries')
    .set({ outcome: 'succeeded', response_status: param('status'), duration_ms: param('durationMs'), attempted_at: param('attemptedAt'), next_attempt_at: null, lease_until: null })
    .where('id', '=', param('id')).where('outcome', '=', 'pending'))

const clearFailing = prepare<{ endpointId: Id }, never>((db, param) =>
  db.updateTable('webhook_endpoints').set({ failing_since: null })
    .where('id', '=', param('endpointId')).where('failing_since', 'is not', null))

type SuccessValues = { ids: string[], statuses: number[], durations: number[], times: string[] }

/**
 * PostgreSQL: every success of a batch, and the endpoints that succeeded, in one statement
 * (one round trip, where a statement for each takes one each), the values as arrays.
 *
 * Each row is found by its key, one lookup per success, whatever the table holds: a
 * prepared statement keeps, after a few runs, the plan made for any values, and for a
 * join of the batch with the table that plan depended on the table's size when it was
 * made. Made while it was small, it read the deliveries through an index of every pending
 * row and kept doing so as they grew, each batch slower than the last, so a backlog
 * drained the slower the longer it was. A lookup by key, with `limit 1`, is planned as
 * one whatever the size; the row is then updated at the address that lookup found
 * (`ctid`). A row another transaction changed in between (its endpoint disabled, its
 * claim taken over) gets the success only if still pending; at worst it is not recorded,
 * and a delivery still pending is made again, as at least once allows.
 */
const recordSuccessBatch = prepare<SuccessValues, never>((db, param) => ({
  compile: () => sql<never>`with done as (
      update webhook_deliveries as d
      set outcome = 'succeeded', response_status = v.status, duration_ms = v.duration, attempted_at = v.at, next_attempt_at = null, lease_until = null
      from unnest(cast(${param('ids')} as bigint[]), cast(${param('statuses')} as integer[]), cast(${param('durations')} as integer[]), cast(${param('times')} as text[])) as v(id, status, duration, at)
      cross join lateral (select x.ctid from webhook_deliveries x where x.id = v.id limit 1) as found
      where d.ctid = found.ctid and d.outcome = 'pending' and ${WITHOUT_WAITING_FOR_THE_DISK}
      returning d.endpoint_id
    )
    update webhook_endpoints set failing_since = null
    where id in (select endpoint_id from done) and failing_since is not null`.compile(db)
}))

/**
 * Records successful attempts, a batch at once: on SQLite one write of the group commit, on
 * PostgreSQL one statement. An endpoint that succeeded is failing no longer.
 */
export async function recordSuccesses (db: Kysely<Database>, outcomes: readonly Outcome[]): Promise<void> {
  if (outcomes.length === 0) return
  if (isPostgres(db)) {
    await recordSuccessBatch(db, {
      ids: outcomes.map((outcome) => String(outcome.id)),
      statuses: outcomes.map((outcome) => outcome.status!),
      durations: outcomes.map((outcome) => outcome.durationMs),
      times: outcomes.map((outcome) => outcome.attemptedAt.toISOString())
    })
    return
  }
  const endpoints = new Set<string>()
  await write(db, async (db) => {
    for (const outcome of outcomes) {
      await recordSuccess(db, { id: outcome.id, status: outcome.status!, durationMs: outcome.durationMs, attemptedAt: outcome.attemptedAt.toISOString() })
      endpoints.add(String(outcome.endpointId))
    }
    for (const endpointId of endpoints) await clearFailing(db, { endpointId: toApiInt(endpointId) })
  })
}

export interface Failure extends Outcome {
  /** When the next attempt is due; undefined when this was the last. */
  retryAt?: Date
  /** The endpoint answered 410 Gone: it is disabled. */
  gone: boolean
  /** An endpoint failing every delivery since at least this long ago is disabled. */
  disableAfterMs: number
}

/** What recording a failure did to the endpoint. */
export type FailureEffect = 'none' | 'disabled' | 'ended'

/**
 * Records a failed attempt, and, in the same transaction: the next attempt's row where one
 * is due; the endpoint's failing start; the endpoint disabled (with its pending
 * deliveries ended) on a 410, or when its deliveries have all failed for
 * `disableAfterMs`. Says whether it disabled the endpoint, or found the delivery ended
 * already (the endpoint removed, or disabled meanwhile).
 */
export async function recordFailure (db: Kysely<Database>, failure: Failure): Promise<FailureEffect> {
  const attemptedAt = failure.attemptedAt.toISOString()
  return inTransaction(db, async (trx) => {
    const endpoint = await trx.updateTable('webhook_endpoints')
      .set((eb) => ({ failing_since: eb.fn.coalesce('failing_since', sql<string>`cast(${attemptedAt} as text)`) }))
      .where('id', '=', failure.endpointId)
      .returning(['failing_since', 'enabled'])
      .executeTakeFirst()
    const enabled = endpoint !== undefined && Number(endpoint.enabled) === 1
    const disable = enabled && (failure.gone || Date.parse(endpoint.failing_since!) <= failure.attemptedAt.getTime() - failure.disableAfterMs)
    const retryAt = enabled && !disable ? failure.retryAt : undefined
    const { numUpdatedRows } = await trx.updateTable('webhook_deliveries')
      .set({
        outcome: 'failed',
        response_status: failure.status ?? null,
        error: failure.error ?? null,
        duration_ms: failure.durationMs,
        attempted_at: attemptedAt,
        next_attempt_at: retryAt?.toISOString() ?? null,
        lease_until: null
      })
      .where('id', '=', failure.id).where('outcome', '=', 'pending')
      .executeTakeFirst()
    if (numUpdatedRows === 0n) return 'ended'
    if (retryAt !== undefined) {
      await trx.insertInto('webhook_deliveries').values({
        endpoint_id: failure.endpointId,
        event_id: failure.eventId,
        attempt: failure.attempt + 1,
        first_attempt: failure.firstAttempt,
        outcome: 'pending',
        next_attempt_at: retryAt.toISOString()
      }).execute()
    }
    if (!disable) return 'none'
    await trx.updateTable('webhook_endpoints').set({ enabled: 0 }).where('id', '=', failure.endpointId).execute()
    await endPendingDeliveries(trx, failure.endpointId, failure.attemptedAt)
    return 'disabled'
  })
}
