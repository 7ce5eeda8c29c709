/**
 * The database's data version: a value that stays the same (`===`) exactly while nothing
 * is committed, by this process or any other, and changes with any commit. What a cache of
 * answers checks to prove it is not stale (../features/response-cache/cache.ts).
 *
 * - SQLite: `PRAGMA data_version`, which moves when another connection, in this process or
 *   another, commits, with `total_changes()`, which moves when this connection changes a
 *   row. Read without a query through Kysely, once per turn of the event loop
 *   (`sharedPerTurn`): each read opens a WAL read transaction (two locks and a file check),
 *   which was a tenth of a cached read. The same object comes back while neither moves.
 * - PostgreSQL: the server's current snapshot (`pg_current_snapshot()`, as text): the
 *   transactions running and the next to start. Any transaction that writes, in any
 *   session of any instance, takes an id that moves it, and it never comes back to an
 *   earlier value; transactions that only read leave it alone. One round trip, with no
 *   table read, shared by the reads of one turn of the event loop (`sharedPerTurn`).
 * @see https://www.sqlite.org/pragma.html#pragma_data_version
 * @see https://www.postgresql.org/docs/current/functions-info.html#FUNCTIONS-PG-SNAPSHOT
 */
import type SQLite from 'better-sqlite3'
import { CompiledQuery, type Kysely } from 'kysely'
import type { Database } from './schema.ts'

/** Compared with `===` only. */
export type DataVersion = object | string

export interface DataVersionReader {
  /**
   * Whether a read waits on the database (a query to a server, which may stall), and so
   * belongs within a request's deadline; on SQLite it waits for the end of the turn only.
   */
  waitsOnDatabase: boolean
  read: () => Promise<DataVersion>
}

const readers = new WeakMap<Kysely<Database>, DataVersionReader>()

/** How to read a database's data version. */
export function dataVersionOf (db: Kysely<Database>): DataVersionReader | undefined {
  return readers.get(db)
}

/** Makes the data version of `db`, opened on the SQLite connection `sqlite`, readable. */
export function watchDataVersion (db: Kysely<Database>, sqlite: SQLite.Database): void {
  const dataVersion = sqlite.prepare('pragma data_version').pluck().safeIntegers(false)
  const changes = sqlite.prepare('select total_changes()').pluck().safeIntegers(false)
  let last: readonly [number, number] = [Number.NaN, Number.NaN]
  readers.set(db, {
    waitsOnDatabase: false,
    read: sharedPerTurn(() => {
      const version = dataVersion.get() as number
      const changed = changes.get() as number
      if (version !== last[0] || changed !== last[1]) last = [version, changed]
      return last
    })
  })
}

const SNAPSHOT = CompiledQuery.raw('select pg_current_snapshot()::text as snapshot') as CompiledQuery<{ snapshot: string }>

/** Makes the data version of `db`, a PostgreSQL database, readable. */
export function watchPostgresDataVersion (db: Kysely<Database>): void {
  readers.set(db, {
    waitsOnDatabase: true,
    read: sharedPerTurn(async () => (await db.executeQuery(SNAPSHOT)).rows[0]!.snapshot)
  })
}

/**
 * `read`, shared by the callers of one turn of the event loop: the first caller's read is
 * made after the turn, once every request the turn took from its sockets has been handled
 * up to here, and they all share its answer; a caller after it was made waits for the next.
 * Every answer is therefore taken after each request sharing it had arrived, so it is as
 * fresh for each as a read of its own (any commit acknowledged before a request was sent
 * is in it), while a busy server reads once per turn instead of once per request.
 */
export function sharedPerTurn<T> (read: () => T | Promise<T>): () => Promise<T> {
  let next: Promise<T> | undefined
  return () => {
    next ??= new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      next = undefined
      return read()
    })
    return next
  }
}
