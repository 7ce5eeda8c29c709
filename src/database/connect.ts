/**
 * Opens the database named by DATABASE_URL. The one place where the dialect is chosen:
 * SQLite (embedded, the default) or PostgreSQL (several instances sharing one database).
 * Everything else, migrations and repositories, is the same Kysely code for both. The
 * PostgreSQL driver is loaded only when a PostgreSQL URL is given, so an embedded start
 * does not pay for it.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, PostgresDialect, SqliteDialect, type Logger } from 'kysely'
import type pg from 'pg'
import { DEFAULTS } from '../defaults.ts'
import type { DatabaseVersion } from '../response-cache.ts'
import { groupCommits } from './group-commit.ts'
import type { Database } from './schema.ts'

export interface DatabaseOptions {
  /** A SQLite file path, `sqlite:PATH` or `:memory:`; or `postgres://...`. */
  url: string
  /** SQLite `synchronous` pragma; FULL makes every acknowledged commit survive power loss. */
  sqliteSynchronous?: 'FULL' | 'NORMAL'
  /** PostgreSQL connections per instance. */
  poolSize?: number
  /** PostgreSQL: connecting, or waiting for a pooled connection. Defaults in ../defaults.ts. */
  connectTimeoutMs?: number
  /** PostgreSQL: one statement, cancelled by the server past it. */
  statementTimeoutMs?: number
  /** PostgreSQL: a session idle inside a transaction is ended by the server past it. */
  idleInTransactionTimeoutMs?: number
  /** PostgreSQL: idle time before TCP keepalive probes a connection. */
  keepAliveDelayMs?: number
  /** SQLite: how long a write waits on a lock another process holds. */
  lockTimeoutMs?: number
  /** Told when an idle PostgreSQL connection fails (the server restarted, say). */
  onConnectionError?: (error: Error) => void
  /** Told of every query and its duration (metrics). */
  onQuery?: Logger
}

const pools = new WeakMap<Kysely<Database>, pg.Pool>()
const versions = new WeakMap<Kysely<Database>, () => DatabaseVersion>()

/** The PostgreSQL connection pool behind a database; undefined for SQLite. */
export function poolOf (db: Kysely<Database>): pg.Pool | undefined {
  return pools.get(db)
}

/**
 * How to read a SQLite database's version (see ../response-cache.ts); undefined for
 * PostgreSQL, where other instances' commits cannot be seen this cheaply and surely.
 */
export function versionOf (db: Kysely<Database>): (() => DatabaseVersion) | undefined {
  return versions.get(db)
}

export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url)

/** The file (or `:memory:`) a SQLite URL names: the URL itself, less any `sqlite:`. */
export const sqlitePath = (url: string) => url.replace(/^sqlite:/, '')

/**
 * The database a URL names, for messages: a SQLite path, or a PostgreSQL URL without its
 * credentials (user, password, and the query, which may carry a password too).
 */
export function describeDatabase (url: string): string {
  if (!isPostgresUrl(url)) return sqlitePath(url)
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    parsed.search = ''
    return parsed.href
  } catch {
    return 'the PostgreSQL database'
  }
}

export async function connect (options: DatabaseOptions): Promise<Kysely<Database>> {
  return isPostgresUrl(options.url) ? await connectPostgres(options) : connectSqlite(options)
}

async function connectPostgres (options: DatabaseOptions): Promise<Kysely<Database>> {
  const { default: pg } = await import('pg')
  // int8 columns come back as strings (pg's default), so ids beyond 2^53 are never rounded.
  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? DEFAULTS.poolSize })
  // Without a listener, an idle connection's error would crash the process; the pool
  // replaces the connection by itself.
  pool.on('error', (error) => options.onConnectionError?.(error))
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: options.onQuery })
  pools.set(db, pool)
  return db
}

function connectSqlite (options: DatabaseOptions): Kysely<Database> {
  const path = sqlitePath(options.url)
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const sqlite = new SQLite(path)
  sqlite.pragma('journal_mode = WAL')
  // Set explicitly: better-sqlite3's default for WAL files differs between first and later opens.
  sqlite.pragma(`synchronous = ${options.sqliteSynchronous ?? DEFAULTS.sqliteSynchronous}`)
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('foreign_keys = ON')
  // better-sqlite3 builds SQLite with a 16 MiB page cache, which creates fill with pages they
  // never read again (docs/performance.md, peak RSS). 8 MiB still holds the indexes that
  // reads walk at 1M pets; the operating system caches the rest of the file.
  sqlite.pragma('cache_size = -8192')
  // Integers come back as BigInt, so ids beyond 2^53 are never rounded on read.
  sqlite.defaultSafeIntegers(true)
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }), log: options.onQuery })
  // data_version moves on other connections' commits, total_changes() on this one's changes.
  const dataVersion = sqlite.prepare('pragma data_version').pluck().safeIntegers(false)
  const changes = sqlite.prepare('select total_changes()').pluck().safeIntegers(false)
  versions.set(db, () => [dataVersion.get() as number, changes.get() as number])
  groupCommits(db)
  return db
}

/**
 * Kysely prepares every query it runs; the service runs a handful of distinct SQL texts,
 * so each is prepared once and reused. The cache is bounded in case a caller builds SQL
 * with inline values.
 */
function cachingStatements (sqlite: SQLite.Database, max = 256) {
  const statements = new Map<string, SQLite.Statement>()
  return {
    close: () => sqlite.close(),
    prepare (sql: string) {
      let statement = statements.get(sql)
      if (statement === undefined) {
        if (statements.size >= max) statements.clear()
        statement = sqlite.prepare(sql)
        statements.set(sql, statement)
      }
      return statement
    }
  }
}
