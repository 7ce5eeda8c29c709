/**
 * Group commit, on SQLite: writes that arrive together share one transaction, so one
 * fsync makes all of them durable. With `synchronous=FULL` every commit waits for the
 * disk, and the event loop with it (better-sqlite3 is synchronous); requests that came in
 * meanwhile are then committed together instead of paying one fsync each.
 *
 * While writes flow (a group committed in the turn before), a group gathers the writes of
 * two turns of the event loop: the turn of its first write, and the next. Under load, that
 * halves the commits for as many writes, and with them the syncs that hold the loop and the
 * reads of what each commit changed (the response cache checks them), which the benchmark's
 * mix of reads and creates shows (docs/performance.md#group-commit). A write waits a share
 * of a busy turn more for it. A write that comes alone still commits at the end of its own
 * turn: to a service draining for a stop, a client that closed its side right after its
 * body had its connection ended by Node before a group of two turns answered, and the
 * service exited with the write not committed (test/process/repeated-signal.test.ts).
 *
 * The writes of a group first run one after the other with nothing between them. Almost
 * always all succeed, and the group commits. When one fails (it throws), it may have left
 * half its changes, so the whole group is rolled back and runs again, each write in a
 * savepoint of its own: the one that fails is undone alone and rejects alone. Savepoints
 * only then, since each costs two statements and a copy of every page its write changes
 * first (docs/performance.md#group-commit). A write may so run twice, in two transactions
 * of which only the second commits: writes do nothing but database work (./README.md).
 * Nothing is acknowledged before the commit; if the commit itself fails, every write of the
 * group is rejected, and none was stored.
 *
 * The grouping is ./batch-per-turn.ts's, with this file's rules: two turns while writes
 * flow, and a failed group run again in savepoints.
 *
 * PostgreSQL needs none of this (its server groups commits itself, and its connections run
 * in parallel); there, and inside a transaction already, a write runs at once.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from './schema.ts'
import { batchPerTurn, type Settled } from './batch-per-turn.ts'
import { inCallersContext } from '../tracing/trace-context.ts'

type Work<T> = (db: Kysely<Database>) => Promise<T>

const groups = new WeakMap<Kysely<Database>, (work: Work<unknown>) => Promise<unknown>>()

/**
 * Groups the writes made through `write` on this (SQLite) database. `open` says whether
 * its transaction is still open: SQLite ends one itself on some failures (a full disk).
 */
export function groupCommits (db: Kysely<Database>, open: () => boolean): void {
  groups.set(db, batchPerTurn<Work<unknown>, unknown>(
    (works) => db.transaction().execute((trx) => inTurn(trx, works, open)),
    { afterFailure: (works) => db.transaction().execute((trx) => inSavepoints(trx, works)), twoTurnsWhileFlowing: true }))
}

/** Runs a write: in the next group commit where there is one, otherwise at once. */
export function write<T> (db: Kysely<Database>, work: Work<T>): Promise<T> {
  const group = db.isTransaction ? undefined : groups.get(db)
  // Each write runs in its own caller's trace, whichever request's turn runs the group.
  return group === undefined ? work(db) : group(inCallersContext(work)) as Promise<T>
}

/**
 * Runs `work` in a transaction of its own: where writes are grouped, a savepoint of the
 * next group commit (it is all-or-nothing just the same, and shares the fsync). Inside a
 * transaction already, it runs at once as part of that one, which commits or rolls back
 * all of it.
 */
export function inTransaction<T> (db: Kysely<Database>, work: Work<T>): Promise<T> {
  if (db.isTransaction) return work(db)
  const group = groups.get(db)
  return group === undefined ? db.transaction().execute(work) : group(inCallersContext(work)) as Promise<T>
}

/** Every write of the group, or the first failure (which rolls them all back). */
async function inTurn (trx: Kysely<Database>, works: Array<Work<unknown>>, open: () => boolean): Promise<unknown[]> {
  const values: unknown[] = []
  for (const work of works) {
    values.push(await work(trx))
    // A write after the transaction ended would be committed on its own, at once.
    if (!open()) throw new Error('the transaction of a group of writes ended before the group did')
  }
  return values
}

/** Each write of the group in a savepoint of its own: one that fails is undone alone. */
async function inSavepoints (trx: Kysely<Database>, works: Array<Work<unknown>>): Promise<Array<Settled<unknown>>> {
  const outcomes: Array<Settled<unknown>> = []
  for (const work of works) {
    await sql`savepoint item`.execute(trx)
    try {
      outcomes.push({ ok: true, value: await work(trx) })
    } catch (error) {
      try {
        await sql`rollback to item`.execute(trx)
      } catch {
        // No savepoint left: SQLite rolled the whole transaction back (a full disk can), so
        // every write of the batch fails, with the cause rather than the missing savepoint.
        throw error
      }
      outcomes.push({ ok: false, error })
    }
    await sql`release item`.execute(trx)
  }
  return outcomes
}
