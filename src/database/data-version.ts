/**
 * The database's data version: two numbers that together move whenever any row of the
 * database changes, read without a query through Kysely. What a cache of answers checks to
 * prove it is not stale (../features/response-cache/cache.ts).
 *
 * On SQLite, `PRAGMA data_version` moves when another connection, in this process or
 * another, commits, and `total_changes()` when this connection changes a row. On
 * PostgreSQL there is none: other instances' commits cannot be seen this cheaply and surely.
 * @see https://www.sqlite.org/pragma.html#pragma_data_version
 */
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'

export type DataVersion = readonly [number, number]

const readers = new WeakMap<Kysely<Database>, () => DataVersion>()

/** How to read a database's data version; undefined for PostgreSQL. */
export function dataVersionOf (db: Kysely<Database>): (() => DataVersion) | undefined {
  return readers.get(db)
}

/** Makes the data version of `db`, opened on the SQLite connection `sqlite`, readable. */
export function watchDataVersion (db: Kysely<Database>, sqlite: SQLite.Database): void {
  const dataVersion = sqlite.prepare('pragma data_version').pluck().safeIntegers(false)
  const changes = sqlite.prepare('select total_changes()').pluck().safeIntegers(false)
  readers.set(db, () => [dataVersion.get() as number, changes.get() as number])
}
