/**
 * Opens the database named by DATABASE_URL. The one place where the dialect is chosen:
 * SQLite (embedded, the default) or PostgreSQL (several instances sharing one database).
 * Everything else, migrations and repositories, is the same Kysely code for both. The
 * PostgreSQL driver is loaded only when a PostgreSQL URL is given, so an embedded start
 * does not pay for it.
 */
import { Kysely, PostgresAdapter, PostgresDialect, sql, type Logger } from 'kysely'
import type pg from 'pg'
import type { DatabaseSettings } from '../config/settings.ts'
import { watchDataVersion, watchPostgresDataVersion } from './data-version.ts'
import { groupCommits } from './group-commit.ts'
import { openPostgresPool } from './postgres.ts'
import type { Database } from './schema.ts'
import { openSqlite } from './sqlite.ts'
import { isPostgresUrl, sqlitePath } from './url.ts'

/**
 * What a database is opened with: every setting given (../config/settings.ts), the defaults
 * applied before, once (../config/defaults.ts, for the service by loadConfig and buildApp).
 */
export interface DatabaseOptions extends DatabaseSettings {
  /** SQLite: each statement a span (tracing on); PostgreSQL's come from its instrumentation. */
  traced?: boolean
  /** Told when an idle PostgreSQL connection fails (the server restarted, say). */
  onConnectionError?: (error: Error) => void
  /** Told of every query and its duration (metrics). */
  onQuery?: Logger
}

const pools = new WeakMap<Kysely<Database>, pg.Pool>()

/** The PostgreSQL connection pool behind a database; undefined for SQLite. */
export function poolOf (db: Kysely<Database>): pg.Pool | undefined {
  return pools.get(db)
}

/**
 * Whether `db` is PostgreSQL: for the repositories, where the two dialects take different
 * paths (`FOR UPDATE`, a row and its event in one statement). Also true of a transaction
 * of it, which `poolOf` does not know.
 */
export function isPostgres (db: Kysely<Database>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}

/** How long a command-line script's statements may block on a lock: a person waits, no request does. */
export const SCRIPT_BLOCKING_WAIT_MS = 5000

export async function connect (options: DatabaseOptions): Promise<Kysely<Database>> {
  return isPostgresUrl(options.url) ? await connectPostgres(options) : connectSqlite(options)
}

async function connectPostgres (options: DatabaseOptions): Promise<Kysely<Database>> {
  const { pool, guarded } = await openPostgresPool({
    url: options.url,
    poolSize: options.poolSize,
    connectTimeoutMs: options.connectTimeoutMs,
    statementTimeoutMs: options.statementTimeoutMs,
    idleInTransactionTimeoutMs: options.idleInTransactionTimeoutMs,
    keepAliveDelayMs: options.keepAliveDelayMs,
    onConnectionError: (error) => options.onConnectionError?.(error)
  })
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: guarded }), log: options.onQuery })
  pools.set(db, pool)
  watchPostgresDataVersion(db)
  return db
}

function connectSqlite (options: DatabaseOptions): Kysely<Database> {
  const { db, sqlite } = openSqlite({
    path: sqlitePath(options.url),
    synchronous: options.sqliteSynchronous,
    mmapBytes: options.sqliteMmapBytes,
    lockTimeoutMs: options.lockTimeoutMs,
    blockingWaitMs: options.blockingWaitMs,
    idleCheckpointMs: options.idleCheckpointMs,
    onQuery: options.onQuery,
    traced: options.traced
  })
  watchDataVersion(db, sqlite)
  groupCommits(db, () => sqlite.inTransaction)
  return db
}

/**
 * SQLite: moves everything in the WAL into the main file and empties the WAL, so that the
 * schema just migrated does not live only in the `-wal` file. Nothing on PostgreSQL.
 */
export async function checkpoint (db: Kysely<Database>): Promise<void> {
  if (!pools.has(db)) await sql`pragma wal_checkpoint(truncate)`.execute(db)
}
