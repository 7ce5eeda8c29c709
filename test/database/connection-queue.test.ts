/**
 * SQLite's one connection: held by one holder at a time, handed to those waiting in the
 * order they came, each woken once; and, through the service's driver, a transaction
 * holding it across awaits keeps every other query out until it ends.
 */
import t from 'tap'
import { ConnectionQueue } from '../../src/database/connection-queue.ts'
import { openSqlite } from '../../src/database/sqlite.ts'
import { sql } from 'kysely'

t.test('one holder at a time, the others in the order they came', async (t) => {
  const queue = new ConnectionQueue()
  const held: string[] = []
  await queue.acquire()
  const waiting = ['a', 'b', 'c'].map(async (name) => {
    await queue.acquire()
    held.push(name)
  })
  await new Promise((resolve) => setImmediate(resolve))
  t.same(held, [], 'none while the first holds it')
  queue.release()
  await new Promise((resolve) => setImmediate(resolve))
  t.same(held, ['a'], 'released: handed to the first waiting, and to it alone')
  queue.release()
  queue.release()
  await Promise.all(waiting)
  t.same(held, ['a', 'b', 'c'], 'then the others, in order')
  queue.release()
  let free = false
  const taken = queue.acquire().then(() => { free = true })
  await Promise.resolve()
  t.ok(free, 'with nobody holding it, taken at once')
  await taken
})

t.test('a transaction that waits on timers keeps the queries that come meanwhile out of it, and they all run after', async (t) => {
  const { db } = openSqlite({ path: ':memory:', synchronous: 'FULL', mmapBytes: 0, lockTimeoutMs: 1000, blockingWaitMs: 0, idleCheckpointMs: 60_000 })
  t.teardown(() => db.destroy())
  await sql`create table t (n integer)`.execute(db)
  const seen: number[] = []
  let inside!: () => void
  const began = new Promise<void>((resolve) => { inside = resolve })
  const transaction = db.transaction().execute(async (trx) => {
    await sql`insert into t values (1)`.execute(trx)
    inside()
    await new Promise((resolve) => setTimeout(resolve, 20))
    await sql`insert into t values (2)`.execute(trx)
  })
  await began
  const counts = Array.from({ length: 20 }, async () => {
    const { rows } = await sql<{ count: number }>`select count(*) as count from t`.execute(db)
    seen.push(Number(rows[0]!.count))
  })
  await Promise.all([transaction, ...counts])
  t.same(seen, Array(20).fill(2), 'every query ran after the commit: none saw the transaction half done')
})
