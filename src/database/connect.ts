/**
 * Opens the database named by DATABASE_URL. The one place where the dialect is chosen.
 */
import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { Database } from './schema.ts'

export interface DatabaseOptions {
  /** A SQLite file path, `sqlite:PATH`, or `:memory:`. */
  url: string
  /** SQLite `synchronous` pragma; FULL makes every acknowledged commit survive power loss. */
  sqliteSynchronous?: 'FULL' | 'NORMAL'
}

export function connect (options: DatabaseOptions): Kysely<Database> {
  const path = options.url.replace(/^sqlite:/, '')
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const sqlite = new SQLite(path)
  sqlite.pragma('journal_mode = WAL')
  // Set explicitly: better-sqlite3's default for WAL files differs between first and later opens.
  sqlite.pragma(`synchronous = ${options.sqliteSynchronous ?? 'FULL'}`)
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('foreign_keys = ON')
  // Integers come back as BigInt, so ids beyond 2^53 are never rounded on read.
  sqlite.defaultSafeIntegers(true)
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: cachingStatements(sqlite) }) })
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
