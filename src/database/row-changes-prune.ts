/**
 * Deleting the changes no reader needs any more, those older than `KEPT_MS`
 * (./row-changes.ts). Apart from reading them: the data version reads them
 * (./data-version.ts), and the deletion writes unseen by it.
 */
import type SQLite from 'better-sqlite3'
import { sql, type Kysely } from 'kysely'
import { isPostgres } from './connect.ts'
import { writeUnseen } from './data-version.ts'
import { isLockHeld } from './errors.ts'
import { KEPT_MS } from './row-changes.ts'
import type { Database } from './schema.ts'

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
