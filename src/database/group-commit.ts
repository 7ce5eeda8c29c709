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
 * of a busy turn more for it. A write that comes alone
 * still commits at the end of its own turn: to a service draining for a stop, a client that
 * closed its side right after its body had its connection ended by Node before a group of
 * two turns answered, and the service exited with the write not committed
 * (test/process/repeated-signal.test.ts).
 *
 * The writes of a group first run one after the other with nothing between them. Almost
 * always all succeed, and the group commits. When one fails (it throws), it may have left
 * half its changes, so the whole group is rolled back and runs again, each write in a
 * savepoint of its own: the one that fails is undone alone and rejects alone. Savepoints
 * only then, since each costs two statements and a copy of every page its write changes
 * first (docs/performance.md#group-commit). A write may so run twice, in two transactions of which only
 * the second commits: writes do nothing but database work. Nothing is acknowledged before
 * the commit; if the commit itself fails, every write of the group is rejected, and none
 * was stored.
 *
 * PostgreSQL needs none of this (its server groups commits itself, and its connections run
 * in parallel); there, and inside a transaction already, a write runs at once.
 */
import { sql, type Kysely } from 'kysely'
import type { Database } from './schema.ts'
import { inCallersContext } from '../tracing/trace-context.ts'

type Work<T> = (db: Kysely<Database>) => Promise<T>
interface Pending { work: Work<unknown>, resolve: (value: unknown) => void, reject: (error: unknown) => void }
type Outcome = { ok: true, value: unknown } | { ok: false, error: unknown }

const batchers = new WeakMap<Kysely<Database>, Batcher>()

/**
 * Groups the writes made through `write` on this (SQLite) database. `open` says whether
 * its transaction is still open: SQLite ends one itself on some failures (a full disk).
 */
export function groupCommits (db: Kysely<Database>, open: () => boolean): void {
  batchers.set(db, new Batcher(db, open))
}

/** Runs a write: in the next group commit where there is one, otherwise at once. */
export function write<T> (db: Kysely<Database>, work: Work<T>): Promise<T> {
  const batcher = db.isTransaction ? undefined : batchers.get(db)
  return batcher === undefined ? work(db) : batcher.add(work)
}

/**
 * Runs `work` in a transaction of its own: where writes are grouped, a savepoint of the
 * next group commit (it is all-or-nothing just the same, and shares the fsync). Inside a
 * transaction already, it runs at once as part of that one, which commits or rolls back
 * all of it.
 */
export function inTransaction<T> (db: Kysely<Database>, work: Work<T>): Promise<T> {
  if (db.isTransaction) return work(db)
  const batcher = batchers.get(db)
  return batcher === undefined ? db.transaction().execute(work) : batcher.add(work)
}

class Batcher {
  #pending: Pending[] = []
  /** Whether a group committed in this turn of the event loop or the one before: writes are flowing. */
  #flowing = false

  constructor (private readonly db: Kysely<Database>, private readonly open: () => boolean) {}

  add<T> (work: Work<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      // Each write runs in its own caller's trace, whichever request's turn runs the group.
      const first = this.#pending.push({ work: inCallersContext(work), resolve: resolve as (value: unknown) => void, reject }) === 1
      // After this turn, and while writes flow the next one too (a second setImmediate is
      // queued for the turn after the first runs). #commit settles every promise of its
      // batch and never rejects itself.
      if (!first) return
      if (this.#flowing) setImmediate(() => setImmediate(() => this.#commit()))
      else setImmediate(() => this.#commit())
    })
  }

  async #commit (): Promise<void> {
    const batch = this.#pending
    this.#pending = []
    this.#flowing = true
    // Past the next turn with no commit, writes no longer flow.
    setImmediate(() => setImmediate(() => { if (this.#pending.length === 0) this.#flowing = false }))
    let outcomes: Outcome[]
    try {
      outcomes = await this.db.transaction().execute((trx) => inTurn(trx, batch, this.open))
    } catch (error) {
      // A lone write's failure is its own; a group's is told apart in savepoints.
      if (batch.length === 1) {
        batch[0]!.reject(error)
        return
      }
      try {
        outcomes = await this.db.transaction().execute((trx) => inSavepoints(trx, batch))
      } catch (error) {
        for (const item of batch) item.reject(error)
        return
      }
    }
    batch.forEach((item, i) => {
      const outcome = outcomes[i]!
      if (outcome.ok) item.resolve(outcome.value)
      else item.reject(outcome.error)
    })
  }
}

/** Every write of the group, or the first failure (which rolls them all back). */
async function inTurn (trx: Kysely<Database>, batch: Pending[], open: () => boolean): Promise<Outcome[]> {
  const outcomes: Outcome[] = []
  for (const item of batch) {
    outcomes.push({ ok: true, value: await item.work(trx) })
    // A write after the transaction ended would be committed on its own, at once.
    if (!open()) throw new Error('the transaction of a group of writes ended before the group did')
  }
  return outcomes
}

async function inSavepoints (trx: Kysely<Database>, batch: Pending[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = []
  for (const item of batch) {
    await sql`savepoint item`.execute(trx)
    try {
      outcomes.push({ ok: true, value: await item.work(trx) })
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
