/**
 * The pets and orders changed since a reader last looked, from `row_changes`, which
 * triggers fill in the transaction of every change, whoever makes it
 * (migrations/20261130000000_record_row_changes.ts). The rows are kept `KEPT_MS`, then
 * deleted (`deleteOldRowChanges`); a reader that looked longer ago than `STALE_MS` does
 * not trust what is left and says so, as it does past `MOST_CHANGES` changes at once.
 */
import type SQLite from 'better-sqlite3'
import { CompiledQuery, sql, type Kysely } from 'kysely'
import { performance } from 'node:perf_hooks'
import { isPostgres } from './connect.ts'
import { prepare } from './prepared.ts'
import { writeUnseen } from './data-version.ts'
import { isLockHeld } from './errors.ts'
import type { Database } from './schema.ts'

/** A pet or an order inserted, updated or deleted. */
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

/** How many old changes are read and deleted at a time: a moment's work, between which requests run. */
const PRUNE_BATCH = 1000

/**
 * Deletes the changes older than `KEPT_MS`, oldest first, a batch per transaction; resolves
 * with how many. Their positions follow their times, so reading from the oldest finds them
 * without reading the rest.
 */
export async function deleteOldRowChanges (db: Kysely<Database>, now = Date.now()): Promise<number> {
  const cutoff = now - KEPT_MS
  if (!isPostgres(db)) return deleteOldSqliteChanges(db, Math.floor(cutoff / 1000))
  let deleted = 0
  for (;;) {
    const rows = await db.selectFrom('row_changes').select(['position', 'changed_at'])
      .orderBy('position').limit(PRUNE_BATCH).execute()
    // `timestamptz`, a Date here (the generated types are SQLite's, unix seconds).
    const old = rows.filter((row) => (row.changed_at as unknown as Date).getTime() < cutoff)
    if (old.length > 0) {
      const last = old.at(-1)!.position
      // The time again: a lower position may commit later, and be young.
      await db.deleteFrom('row_changes').where('position', '<=', last)
        .where('changed_at', '<', sql<number>`${new Date(cutoff)}`).execute()
    }
    deleted += old.length
    if (old.length < PRUNE_BATCH) return deleted
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/**
 * SQLite: each batch read and deleted at once on the connection, in a turn of its own, and
 * unseen by the data version (`writeUnseen`): the deletion changes no answer, and would
 * otherwise drop every answer kept under the version at each batch. Waits a turn while a
 * transaction of the connection (a group commit) is open.
 */
async function deleteOldSqliteChanges (db: Kysely<Database>, cutoffSeconds: number): Promise<number> {
  let deleted = 0
  for (;;) {
    let batch: number | undefined
    try {
      batch = writeUnseen(db, (sqlite) => {
        const { oldest, deleteThrough } = pruneStatements(sqlite)
        const old = (oldest.all(PRUNE_BATCH) as Array<[bigint, bigint]>).filter(([, at]) => at < cutoffSeconds)
        if (old.length > 0) asMaintenance(sqlite, () => deleteThrough.run(old.at(-1)![0]))
        return old.length
      })
    } catch (error) {
      // Another process holds the write lock (the service never blocks on it): the next
      // interval tries again.
      if (isLockHeld(error)) return deleted
      throw error
    }
    deleted += batch ?? 0
    if (batch !== undefined && batch < PRUNE_BATCH) return deleted
    await new Promise((resolve) => setImmediate(resolve))
  }
}

/**
 * Runs `run`, a deletion of old changes, as maintenance rather than as a write someone
 * waits for:
 * - Off SQLite's memory map, which is then mapped afresh. The changes are written beside
 *   the rows they record, so their pages lie all through the file; deleted through the map,
 *   each page faults in, and the kernel maps the pages around it with it (fault-around,
 *   64 KiB): pruning a burst of writes' changes brought nearly the whole file into the
 *   process's RSS (docs/performance.md#the-memory-map). Off the map, the pages are read with
 *   read(2) into SQLite's own small cache; the reads that follow fault theirs in again,
 *   from the operating system's cache.
 * - Committed without waiting for the disk (`synchronous = NORMAL`), since the wait holds
 *   the event loop, and every request with it. WAL mode keeps the database whole either
 *   way; a deletion lost to a power cut is only made again at the next prune, and the next
 *   write's commit syncs the log, this deletion's part with it.
 */
function asMaintenance<T> (sqlite: SQLite.Database, run: () => T): T {
  const mapped = sqlite.pragma('mmap_size', { simple: true }) as bigint
  const synchronous = sqlite.pragma('synchronous', { simple: true }) as bigint
  if (mapped !== 0n) sqlite.pragma('mmap_size = 0')
  if (synchronous > 1n) sqlite.pragma('synchronous = NORMAL')
  try {
    return run()
  } finally {
    if (synchronous > 1n) sqlite.pragma(`synchronous = ${synchronous}`)
    if (mapped !== 0n) sqlite.pragma(`mmap_size = ${mapped}`)
  }
}

const prunes = new WeakMap<SQLite.Database, { oldest: SQLite.Statement, deleteThrough: SQLite.Statement }>()

/** The deletion's two statements, prepared once per connection. */
function pruneStatements (sqlite: SQLite.Database): { oldest: SQLite.Statement, deleteThrough: SQLite.Statement } {
  let statements = prunes.get(sqlite)
  if (statements === undefined) {
    statements = {
      oldest: sqlite.prepare('select position, changed_at from row_changes order by position limit ?').raw().safeIntegers(true),
      deleteThrough: sqlite.prepare('delete from row_changes where position <= ?')
    }
    prunes.set(sqlite, statements)
  }
  return statements
}
