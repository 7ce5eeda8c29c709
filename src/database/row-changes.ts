/**
 * The pets, categories and orders changed since a reader last looked, from `row_changes`,
 * which triggers fill in the transaction of every change, whoever makes it
 * (migrations/20261130000000_record_row_changes.ts; categories from
 * 20261201000000_create_categories.ts). The rows are kept `KEPT_MS`, then
 * deleted (./row-changes-prune.ts); a reader that looked longer ago than `STALE_MS` does
 * not trust what is left and says so, as it does past `MOST_CHANGES` changes at once.
 */
import type SQLite from 'better-sqlite3'
import { CompiledQuery, sql, type Kysely } from 'kysely'
import { performance } from 'node:perf_hooks'
import { prepare } from './prepared.ts'
import type { Database } from './schema.ts'

/** A pet, a category or an order inserted, updated or deleted. */
export interface RowChange {
  table: string
  /** `EVERY_ROW` where the table was emptied at once (PostgreSQL's TRUNCATE). */
  id: bigint
}

/** The id no row has, that stands for all of them. */
export const EVERY_ROW = 0n

/**
 * How long the changes are kept: short, since every write adds one, and a table that holds
 * minutes of a busy service's writes costs their pages on disk and in memory.
 */
export const KEPT_MS = 30_000

/**
 * How long a reader trusts its last look: within `KEPT_MS` by more than the longest a
 * transaction stays open (PostgreSQL ends one idle for 10 s, and a statement after 5 s),
 * since a change is timed when written and seen when committed.
 */
export const STALE_MS = 10_000

/** Beyond this many changes at once, a reader says "unknown" rather than list them. */
export const MOST_CHANGES = 10_000

/**
 * SQLite: the changes committed since the last call, by position, since SQLite commits one
 * writer at a time; undefined on the first call, after a long pause, or past
 * `MOST_CHANGES`. Never called in the middle of a transaction of this connection.
 */
export function sqliteChanges (sqlite: SQLite.Database): () => RowChange[] | undefined {
  const since = sqlite.prepare('select position, table_name, row_id from row_changes where position > ? order by position limit ?')
    .raw().safeIntegers(true)
  // AUTOINCREMENT's high-water mark: what the next change will be above, even once every
  // row is deleted.
  const highest = sqlite.prepare("select coalesce((select seq from sqlite_sequence where name = 'row_changes'), 0)")
    .pluck().safeIntegers(true)
  let position: bigint | undefined
  let readAt = 0
  return () => {
    const now = performance.now()
    const trusted = position !== undefined && now - readAt < STALE_MS
    readAt = now
    if (!trusted) {
      position = highest.get() as bigint
      return undefined
    }
    const rows = since.all(position, MOST_CHANGES + 1) as Array<[bigint, string, bigint]>
    if (rows.length > 0) position = rows.at(-1)![0]
    if (rows.length > MOST_CHANGES) {
      position = highest.get() as bigint
      return undefined
    }
    return rows.map(([, table, id]) => ({ table, id }))
  }
}

interface SnapshotRow { snapshot: string, table_name: string | null, row_id: string | null }

const SNAPSHOT = CompiledQuery.raw('select pg_current_snapshot()::text as snapshot') as CompiledQuery<SnapshotRow>

/**
 * PostgreSQL: the snapshot, and the changes of the transactions it sees that `snapshot`, an
 * earlier snapshot, did not: those that committed since, in whatever order. In one
 * statement, so both are of one snapshot (`pg_current_snapshot()` is the statement's). A
 * named statement (./prepared.ts): under load it runs once per turn of the event loop, and
 * parsing and planning it each time would cost the server more than running it does.
 */
const sinceSnapshot = prepare<{ snapshot: string }, SnapshotRow>((db, param) => ({
  compile: () => sql<SnapshotRow>`select s.snapshot, c.table_name, c.row_id::text as row_id
from (select pg_current_snapshot()::text as snapshot) s
left join lateral (
  select table_name, row_id from row_changes
  where transaction_id >= pg_snapshot_xmin(cast(${param('snapshot')} as pg_snapshot))
    and not pg_visible_in_snapshot(transaction_id, cast(${param('snapshot')} as pg_snapshot))
  limit ${sql.lit(MOST_CHANGES + 1)}
) c on true`.compile(db)
}))

/**
 * PostgreSQL: each call, the current snapshot (the data version) and the changes since
 * the snapshot of an earlier call. Calls may be in flight together and end in any order:
 * each looks from the snapshot of the latest call begun before it that has ended. Any
 * snapshot a call ended with will do, since everything it sees was listed by that call or
 * one before it; a change is listed at least once, sometimes twice.
 */
export function postgresChanges (db: Kysely<Database>): () => Promise<{ version: string, changes: RowChange[] | undefined }> {
  let base: { snapshot: string, begun: number, at: number } | undefined
  let begun = 0
  return async () => {
    const number = ++begun
    const at = performance.now()
    const from = base !== undefined && at - base.at < STALE_MS ? base.snapshot : undefined
    const { rows } = from === undefined ? await db.executeQuery(SNAPSHOT) : await sinceSnapshot(db, { snapshot: from })
    const snapshot = rows[0]!.snapshot
    if (base === undefined || number > base.begun) base = { snapshot, begun: number, at }
    if (from === undefined || rows.length > MOST_CHANGES) return { version: snapshot, changes: undefined }
    const changes: RowChange[] = []
    for (const row of rows) if (row.table_name !== null) changes.push({ table: row.table_name, id: BigInt(row.row_id!) })
    return { version: snapshot, changes }
  }
}
