/**
 * The changed rows the response cache reads with the data version: every pet and order
 * inserted, updated or deleted, by anyone, is in the next reading, at least once; and on
 * PostgreSQL, a change is listed once it commits, whenever it began.
 */
import { sql } from 'kysely'
import pg from 'pg'
import t, { type Test } from 'tap'
import { dataVersionOf, type DataVersionReader, type Reading } from '../../src/database/data-version.ts'
import { deleteOldRowChanges } from '../../src/database/row-changes-prune.ts'
import { KEPT_MS } from '../../src/database/row-changes.ts'
import { build, JSON_HEADERS, TEST_KEY } from '../helpers/app.ts'
import { createPostgresDatabase, postgresSkipReason } from '../helpers/services.ts'
import { join } from 'node:path'
import { buildApp } from '../../src/app.ts'
import { holdWriteLock } from '../helpers/lock-holder.ts'
import { tempDir } from '../helpers/process.ts'

const ids = (reading: Reading, table = 'pets') => reading.changes?.filter((change) => change.table === table).map((change) => Number(change.id))

/** A reader whose first reading (changes not known yet) is behind it. */
async function readerOf (t: Test, app: { db: Parameters<typeof dataVersionOf>[0] }): Promise<DataVersionReader> {
  const reader = dataVersionOf(app.db)!
  t.equal((await reader.read()).changes, undefined, 'the first reading knows no changes')
  return reader
}

t.test('every pet and order inserted, updated or deleted is in the next reading', async (t) => {
  const app = await build(t, { events: { pollIntervalMs: 3_600_000 }, webhooks: { pollIntervalMs: 3_600_000 }, rowChangesPruneIntervalMs: 3_600_000 })
  const reader = await readerOf(t, app)
  t.same((await reader.read()).changes, [], 'nothing changed')
  const created = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1, status: 'available' } })
  t.equal(created.statusCode, 201)
  t.same(ids(await reader.read()), [1], 'a pet created')
  const placed = await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: 1, quantity: 1 } })
  t.equal(placed.statusCode, 201)
  let reading = await reader.read()
  t.same([ids(reading), ids(reading, 'orders')], [[1], [1]], 'an order placed, and its pet reserved')
  await sql`update pets set name = 'Renamed' where id = 1`.execute(app.db)
  t.same(ids(await reader.read()), [1], 'a change made with SQL, as another program would')
  await sql`delete from orders where id = 1`.execute(app.db)
  reading = await reader.read()
  t.same([ids(reading), ids(reading, 'orders')], [[], [1]], 'an order deleted')
  await sql`update pets set id = 5 where id = 1`.execute(app.db)
  t.same(ids(await reader.read())?.sort(), [1, 5], 'an id changed: both')
  await app.events.settled()
  t.same((await reader.read()).changes, [], 'nothing else: numbering events and the like change no pet or order')
})

t.test('old changes are deleted, young ones kept', async (t) => {
  const app = await build(t)
  const count = async () => Number((await sql<{ n: number }>`select count(*) as n from row_changes`.execute(app.db)).rows[0]!.n)
  await sql`insert into pets (name, category_id) values ('a', 1), ('b', 1), ('c', 1)`.execute(app.db)
  t.equal(await count(), 3)
  t.equal(await deleteOldRowChanges(app.db), 0, 'none is old yet')
  t.equal(await count(), 3)
  // Seen from a few seconds more than KEPT_MS ahead, they are all old.
  t.equal(await deleteOldRowChanges(app.db, Date.now() + KEPT_MS + 5_000), 3)
  t.equal(await count(), 0)
  const reader = await readerOf(t, app)
  await sql`insert into pets (name, category_id) values ('d', 1)`.execute(app.db)
  t.same(ids(await reader.read()), [4], 'and a change after is still found')
})

t.test('SQLite: a reading asked for inside a transaction of the connection is taken once it ends', { skip: process.env.PETSTORE_TEST_DATABASE === 'postgres' && 'SQLite only' }, async (t) => {
  const app = await build(t)
  const reader = await readerOf(t, app)
  let read = false
  let reading: Promise<Reading> | undefined
  await app.db.transaction().execute(async (trx) => {
    await sql`insert into pets (name, category_id) values ('uncommitted', 1)`.execute(trx)
    reading = reader.read()
    reading.then(() => { read = true }, () => {})
    // Turns of the event loop go by while the transaction is open.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
    t.equal(read, false, 'not taken while the change may yet be rolled back')
  })
  t.same(ids(await reading!), [1], 'taken after the commit, with it')
})

t.test('SQLite: deleting old changes leaves the data version where it was, and waits for a transaction to end', { skip: process.env.PETSTORE_TEST_DATABASE === 'postgres' && 'SQLite only' }, async (t) => {
  const app = await build(t, { rowChangesPruneIntervalMs: 3_600_000 })
  const reader = await readerOf(t, app)
  await sql`insert into pets (name, category_id) values ('a', 1), ('b', 1)`.execute(app.db)
  const before = await reader.read()
  t.same(ids(before), [1, 2])
  const later = Date.now() + KEPT_MS + 5_000
  let deleting: Promise<number> | undefined
  await app.db.transaction().execute(async (trx) => {
    await sql`insert into pets (name, category_id) values ('c', 1)`.execute(trx)
    deleting = deleteOldRowChanges(app.db, later)
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve))
  })
  t.equal(await deleting, 3, 'every change, the one committed meanwhile too, once the transaction ended')
  t.not((await reader.read()).version, before.version, 'the insert moved the version (its change, deleted as if old, is not read here)')
  t.equal(await deleteOldRowChanges(app.db, later), 0)
  await sql`insert into pets (name, category_id) values ('d', 1)`.execute(app.db)
  const beforeDeletion = await reader.read()
  t.equal(await deleteOldRowChanges(app.db, later), 1)
  const after = await reader.read()
  t.equal(after.version, beforeDeletion.version, 'the deletion alone: the same version, so the answers made from anything stay')
  t.same(after.changes, [])
})

t.test('SQLite: while another process holds the write lock, old changes wait for the next time', { skip: process.env.PETSTORE_TEST_DATABASE === 'postgres' && 'SQLite only' }, async (t) => {
  const file = join(tempDir(t), 'petstore.db')
  const app = await build(t, { database: { url: file }, rowChangesPruneIntervalMs: 3_600_000 })
  await sql`insert into pets (name, category_id) values ('a', 1)`.execute(app.db)
  const later = Date.now() + KEPT_MS + 5_000
  const lock = await holdWriteLock(t, file)
  t.equal(await deleteOldRowChanges(app.db, later), 0, 'none deleted, and no error: the service never waits on the lock')
  await lock.release()
  t.equal(await deleteOldRowChanges(app.db, later), 1, 'deleted once the lock is free')
})

t.test('SQLite: old changes are deleted off the memory map and without waiting for the disk, both then put back as they were', { skip: process.env.PETSTORE_TEST_DATABASE === 'postgres' && 'SQLite only' }, async (t) => {
  const file = join(tempDir(t), 'petstore.db')
  const app = await build(t, { database: { url: file }, rowChangesPruneIntervalMs: 3_600_000 })
  const mapped = async () => Number((await sql<{ mmap_size: bigint }>`pragma mmap_size`.execute(app.db)).rows[0]!.mmap_size)
  const synchronous = async () => Number((await sql<{ synchronous: bigint }>`pragma synchronous`.execute(app.db)).rows[0]!.synchronous)
  const configured = await mapped()
  t.ok(configured > 0, 'the file is read through a memory map')
  t.equal(await synchronous(), 2, 'each commit waits for the disk (FULL)')
  await sql`insert into pets (name, category_id) values ('a', 1), ('b', 1)`.execute(app.db)
  const later = Date.now() + KEPT_MS + 5_000
  t.equal(await deleteOldRowChanges(app.db, later), 2)
  t.equal(await mapped(), configured, 'mapped again once deleted')
  t.equal(await synchronous(), 2, 'FULL again once deleted')

  await sql`insert into pets (name, category_id) values ('c', 1)`.execute(app.db)
  const lock = await holdWriteLock(t, file)
  t.equal(await deleteOldRowChanges(app.db, later), 0)
  t.equal(await mapped(), configured, 'mapped again when the deletion failed on the lock')
  t.equal(await synchronous(), 2, 'FULL again when the deletion failed on the lock')
  await lock.release()

  await sql`pragma mmap_size = 0`.execute(app.db)
  t.equal(await deleteOldRowChanges(app.db, later), 1, 'with no map (SQLITE_MMAP_MB=0) too')
  t.equal(await mapped(), 0, 'and none made')
})

const skip = await postgresSkipReason()

t.test('PostgreSQL: a change that began before a reading and committed after it is in a later reading', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  const app = await buildApp({ database: { url }, apiKeys: [TEST_KEY], pressure: { maxEventLoopDelayMs: 0 } })
  t.teardown(() => app.close())
  const reader = await readerOf(t, app)
  const slow = new pg.Client({ connectionString: url })
  await slow.connect()
  t.teardown(() => slow.end())
  await slow.query('begin')
  await slow.query("insert into pets (name, category_id) values ('slow', 1)")
  await sql`insert into pets (name, category_id) values ('quick', 1)`.execute(app.db)
  t.same(ids(await reader.read()), [2], 'the later change, committed first')
  await slow.query('commit')
  t.same(ids(await reader.read()), [1], 'the earlier one, once committed')
  t.same(ids(await reader.read()), [], 'each once')
  await sql`truncate pets cascade`.execute(app.db)
  const reading = await reader.read()
  t.same([ids(reading), ids(reading, 'orders')], [[0], [0]], 'a truncate: row 0, every row, of each table emptied')
})
