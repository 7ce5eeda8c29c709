/**
 * The embedded database: one SQLite file in WAL mode, through better-sqlite3.
 *
 * better-sqlite3 is synchronous, so anything that waits inside SQLite waits with the whole
 * event loop. Hence a Kysely driver of our own, in three points:
 * - A transaction starts with `BEGIN IMMEDIATE`, taking the write lock at its first
 *   statement. When another process holds it (the keys command, a backup, a second service,
 *   the `sqlite3` shell), the attempt is repeated on timers for up to `lockTimeoutMs`, while
 *   other requests go on; SQLite's own busy wait would block them all. Past it, the
 *   `SQLITE_BUSY` error goes up (503). With a deferred `BEGIN`, the write would instead fail
 *   at once on a snapshot that another process's commit made stale.
 * - A rollback after SQLite has already rolled back by itself (a full disk, an I/O error)
 *   is skipped: it would throw "no transaction is active", and that error would replace the
 *   real cause in the log.
 * - When writes have stopped for a while, the WAL is checkpointed into the main file, so a
 *   lost or deleted `-wal` file costs as little as possible.
 * - The one connection is handed to its waiting queries in turn (ConnectionQueue).
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import SQLite from 'better-sqlite3'
import { CompiledQuery, Kysely, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type Logger, type SqliteStatement } from 'kysely'
import { ConnectionQueue } from './connection-queue.ts'
import { isLockHeld } from './errors.ts'
import type { Database } from './schema.ts'
import { tracedStatement } from '../tracing/sqlite-spans.ts'

export interface SqliteOptions {
  path: string
  synchronous: 'FULL' | 'NORMAL'
  /** Bytes of the file read through a memory map (`mmap_size`); 0 reads every page with read(2). */
  mmapBytes: number
  /** How long a transaction waits, on timers, for the write lock another process holds. */
  lockTimeoutMs: number
  /**
   * How long a statement may block the thread waiting on a lock (SQLite's busy_timeout).
   * 0 in the service, which must never block; a command-line script may wait.
   */
  blockingWaitMs: number
  /** How often the WAL is considered for a checkpoint: one when no write came in a whole interval. */
  idleCheckpointMs: number
  onQuery?: Logger
  /** Each statement a span of the trace it runs in (tracing on). */
  traced?: boolean
}

class ImmediateDriver extends SqliteDriver {
  readonly #sqlite: SQLite.Database
  readonly #lockTimeoutMs: number
  readonly #stopCheckpoints: () => void
  readonly #queue = new ConnectionQueue()

  constructor (sqlite: SQLite.Database, database: ConstructorParameters<typeof SqliteDriver>[0]['database'], options: SqliteOptions) {
    super({ database })
    this.#sqlite = sqlite
    this.#lockTimeoutMs = options.lockTimeoutMs
    this.#stopCheckpoints = checkpointWhenIdle(sqlite, options.idleCheckpointMs)
  }

  override async acquireConnection (): Promise<DatabaseConnection> {
    await this.#queue.acquire()
    return await super.acquireConnection()
  }

  override async releaseConnection (): Promise<void> {
    await super.releaseConnection()
    this.#queue.release()
  }

  override async beginTransaction (connection: DatabaseConnection): Promise<void> {
    const begin = CompiledQuery.raw('begin immediate')
    const deadline = Date.now() + this.#lockTimeoutMs
    for (let delayMs = 2; ; delayMs = Math.min(delayMs * 2, 50)) {
      try {
        await connection.executeQuery(begin)
        return
      } catch (error) {
        if (!isLockHeld(error) || Date.now() + delayMs > deadline) throw error
      }
      await sleep(delayMs)
    }
  }

  override async rollbackTransaction (connection: DatabaseConnection): Promise<void> {
    if (this.#sqlite.inTransaction) await super.rollbackTransaction(connection)
  }

  override async destroy (): Promise<void> {
    this.#stopCheckpoints()
    await super.destroy()
  }
}

/** Checkpoints the WAL (PASSIVE: never waits on readers or writers) once writes have paused. */
function checkpointWhenIdle (sqlite: SQLite.Database, intervalMs: number): () => void {
  const changes = sqlite.prepare('select total_changes()').pluck().safeIntegers(false)
  let checkpointedAt = changes.get() as number
  let seen = checkpointedAt
  const timer = setInterval(() => {
    const now = changes.get() as number
    // Still writing: wait for a quiet interval. Nothing new since the last one: nothing to do.
    if (now !== seen || now === checkpointedAt) {
      seen = now
      return
    }
    try {
      sqlite.pragma('wal_checkpoint(PASSIVE)')
      checkpointedAt = now
    } catch {
      // A busy or full database: the next quiet interval tries again.
    }
  }, intervalMs).unref()
  return () => clearInterval(timer)
}

export interface SqliteDatabase {
  db: Kysely<Database>
  sqlite: SQLite.Database
}

export function openSqlite (options: SqliteOptions): SqliteDatabase {
  if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true })
  const sqlite = new SQLite(options.path)
  sqlite.pragma('journal_mode = WAL')
  // Set explicitly: better-sqlite3's default for WAL files differs between first and later opens.
  sqlite.pragma(`synchronous = ${options.synchronous}`)
  sqlite.pragma(`busy_timeout = ${options.blockingWaitMs}`)
  sqlite.pragma('foreign_keys = ON')
  // Reads go through a memory map: without a system call and a copy into SQLite's page
  // cache for each page, a large database reads nearly as fast as a small one
  // (docs/performance.md#the-memory-map). The mapped pages are the operating system's own
  // page cache, counted in RSS once touched. SQLite maps only reads; it writes with write(2).
  sqlite.pragma(`mmap_size = ${options.mmapBytes}`)
  // So SQLite's own cache holds mostly the pages a write changes, which creates fill and
  // never read again: 2 MiB, where better-sqlite3's build keeps 16
  // (docs/performance.md#memory). Pages past the map, or all of them with
  // SQLITE_MMAP_MB=0, are read from the operating system's cache.
  sqlite.pragma('cache_size = -2048')
  // Each write of a group commit runs in a savepoint (group-commit.ts), so SQLite keeps the
  // original of every page a write changes first, to roll that write back alone: in memory,
  // not in a temporary file written and read through system calls. The copies last one
  // transaction, a group of small writes; an order placed with its two events changes about
  // ten pages.
  sqlite.pragma('temp_store = memory')
  // Integers come back as BigInt, so ids beyond 2^53 are never rounded on read.
  sqlite.defaultSafeIntegers(true)
  const database = cachingStatements(sqlite, options.traced === true)
  const dialect = new (class extends SqliteDialect {
    override createDriver (): Driver { return new ImmediateDriver(sqlite, database, options) }
  })({ database })
  return { db: new Kysely<Database>({ dialect, log: options.onQuery }), sqlite }
}

/**
 * Kysely prepares every query it runs; the service runs a handful of distinct SQL texts,
 * so each is prepared once and reused. The cache is bounded in case a caller builds SQL
 * with inline values.
 */
function cachingStatements (sqlite: SQLite.Database, traced: boolean, max = 256) {
  const statements = new Map<string, SqliteStatement>()
  return {
    close: () => sqlite.close(),
    prepare (sql: string) {
      let statement = statements.get(sql)
      if (statement === undefined) {
        if (statements.size >= max) statements.clear()
        statement = traced ? tracedStatement(sqlite.prepare(sql), sql) : sqlite.prepare(sql)
        statements.set(sql, statement)
      }
      return statement
    }
  }
}
