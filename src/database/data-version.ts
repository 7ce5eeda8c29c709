/**
 * The database's data version, and the rows changed since the last look: what a cache of
 * answers checks to prove it is not stale (../features/response-cache/cache.ts).
 *
 * The version is a value that stays the same (`===`) exactly while nothing is committed,
 * by this process or any other, and changes with any commit:
 * - SQLite: `PRAGMA data_version`, which moves when another connection, in this process or
 *   another, commits, with `total_changes()`, which moves when this connection changes a
 *   row. Read without a query through Kysely, once per turn of the event loop
 *   (`sharedPerTurn`): each read opens a WAL read transaction (two locks and a file check),
 *   too much to pay on every cached read. The same reading comes back while neither moves.
 * - PostgreSQL: the server's current snapshot (`pg_current_snapshot()`, as text): the
 *   transactions running and the next to start. Any transaction that writes, in any
 *   session of any instance, takes an id that moves it, and it never comes back to an
 *   earlier value; transactions that only read leave it alone. One round trip, shared by
 *   the reads of one turn of the event loop (`sharedPerTurn`).
 *
 * With it come the pets, categories and orders changed since the reading before, from
 * `row_changes` (./row-changes.ts), which triggers fill in the transaction of every
 * change, whoever makes it: answers made from other rows stay good.
 * @see https://www.sqlite.org/pragma.html#pragma_data_version
 * @see https://www.postgresql.org/docs/current/functions-info.html#FUNCTIONS-PG-SNAPSHOT
 */
import type SQLite from 'better-sqlite3'
import type { Kysely } from 'kysely'
import { postgresChanges, sqliteChanges, type RowChange } from './row-changes.ts'
import type { Database } from './schema.ts'

/** Compared with `===` only. */
export type DataVersion = object | string

export interface Reading {
  version: DataVersion
  /**
   * The pets, categories and orders changed since the reading before, each at least once
   * (a change may come twice); undefined when they are not known (the first reading, a
   * long pause, a flood of changes), and then any row may have changed.
   */
  changes: readonly RowChange[] | undefined
}

export interface DataVersionReader {
  /**
   * Whether a read waits on the database (a query to a server, which may stall), and so
   * belongs within a request's deadline; on SQLite it waits for the end of the turn only.
   */
  waitsOnDatabase: boolean
  read: () => Promise<Reading>
}

const readers = new WeakMap<Kysely<Database>, DataVersionReader>()

/** How to read a database's data version. */
export function dataVersionOf (db: Kysely<Database>): DataVersionReader | undefined {
  return readers.get(db)
}

const NO_CHANGE: readonly RowChange[] = Object.freeze([])

const unseenWriters = new WeakMap<Kysely<Database>, <T>(write: (sqlite: SQLite.Database) => T) => T | undefined>()

/**
 * SQLite: runs `write` on the connection at once, and leaves the data version where it was,
 * for a write that changes no answer a cache keeps (the deletion of old changed rows), so
 * that the answers kept under the version stay. Undefined, and not run, while a transaction
 * of the connection is open, or on PostgreSQL.
 */
export function writeUnseen<T> (db: Kysely<Database>, write: (sqlite: SQLite.Database) => T): T | undefined {
  return unseenWriters.get(db)?.(write)
}

/** Makes the data version of `db`, opened on the SQLite connection `sqlite`, readable. */
export function watchDataVersion (db: Kysely<Database>, sqlite: SQLite.Database): void {
  const dataVersion = sqlite.prepare('pragma data_version').pluck().safeIntegers(false)
  const changes = sqlite.prepare('select total_changes()').pluck().safeIntegers(false)
  // The rows this connection changed by `writeUnseen`: synchronous, with no transaction
  // open, so the count it moved `total_changes()` by is exactly its own.
  let unseen = 0
  unseenWriters.set(db, (write) => {
    if (sqlite.inTransaction) return undefined
    const before = changes.get() as number
    try {
      return write(sqlite)
    } finally {
      unseen += (changes.get() as number) - before
    }
  })
  // Prepared on first use: the table exists once the migrations have run.
  let changedRows: ReturnType<typeof sqliteChanges> | undefined
  let last: Reading & { at: readonly [number, number] } = { version: {}, at: [Number.NaN, Number.NaN], changes: undefined }
  readers.set(db, {
    waitsOnDatabase: false,
    read: sharedPerTurn(async () => {
      // Never in the middle of a transaction of this connection: it would see changes not
      // yet committed, which may yet be rolled back.
      while (sqlite.inTransaction) await new Promise((resolve) => setImmediate(resolve))
      const version = dataVersion.get() as number
      const changed = (changes.get() as number) - unseen
      if (version !== last.at[0] || changed !== last.at[1]) {
        changedRows ??= sqliteChanges(sqlite)
        const at = [version, changed] as const
        last = { version: at, at, changes: changedRows() }
      } else if (last.changes !== NO_CHANGE) {
        last = { ...last, changes: NO_CHANGE }
      }
      return last
    })
  })
}

/** Makes the data version of `db`, a PostgreSQL database, readable. */
export function watchPostgresDataVersion (db: Kysely<Database>): void {
  readers.set(db, { waitsOnDatabase: true, read: sharedPerTurn(postgresChanges(db)) })
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
