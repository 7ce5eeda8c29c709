/**
 * SQLite in trouble: a lock held by another process, a full database, the keys command
 * writing while the service does, a lost WAL. Each fault is made for real (another
 * process, SQLite's own page limit), and the service is watched from the outside.
 */
import { copyFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import type { LightMyRequestResponse } from 'fastify'
import { sql } from 'kysely'
import t from 'tap'
import { AUTH, build, JSON_HEADERS } from '../helpers/app.ts'
import { DATABASE_UNAVAILABLE } from '../helpers/answers.ts'
import { until } from '../helpers/until.ts'
import { holdWriteLock } from '../helpers/lock-holder.ts'
import { captureLog } from '../helpers/log.ts'
import { runScript, tempDir } from '../helpers/process.ts'
import { rowCount } from '../helpers/store.ts'

const newPet = (name: string, headers: Record<string, string> = {}) =>
  ({ method: 'POST' as const, url: '/v1/pets', headers: { ...JSON_HEADERS, ...headers }, payload: { name, categoryId: 1 } })

t.test('a write waits for a lock another process holds, while other requests are answered', async (t) => {
  const file = join(tempDir(t), 'petstore.db')
  // A long allowance: this test shows the waiting, not its limit.
  const app = await build(t, { database: { url: file, lockTimeoutMs: 30_000 } })
  const holder = await holdWriteLock(t, file)
  let created = false
  const create = app.inject(newPet('waits')).then((res) => { created = true; return res })
  // The create is waiting on the lock now; the event loop is not.
  const health = await app.inject({ url: '/healthz' })
  t.equal(health.statusCode, 200)
  t.equal((await app.inject({ url: '/v1/pets', headers: AUTH })).statusCode, 200, 'reads are answered meanwhile')
  t.notOk(created, 'the create is still waiting for the lock')
  await holder.release()
  const res = await create
  t.equal(res.statusCode, 201, 'and goes through once the lock is free')
  t.equal(await rowCount(app, 'pets'), 1)
})

t.test('a lock held past SQLITE_LOCK_TIMEOUT_MS is a 503 with Retry-After, nothing is written, and the log says why', async (t) => {
  const file = join(tempDir(t), 'petstore.db')
  const log = captureLog()
  const app = await build(t, { database: { url: file, lockTimeoutMs: 200 }, logger: { level: 'info', stream: log.stream } })
  const holder = await holdWriteLock(t, file)
  for (const request of [newPet('plain'), newPet('idempotent', { 'idempotency-key': 'locked-1' })]) {
    const res = await app.inject(request)
    t.equal(res.statusCode, 503)
    t.same(res.json(), DATABASE_UNAVAILABLE)
    t.equal(res.headers['retry-after'], '2')
    t.equal(res.headers['cache-control'], 'no-store')
    t.match(res.headers['content-type'], /^application\/json/)
  }
  const placed = await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: 1 } })
  t.same([placed.statusCode, placed.json()], [503, DATABASE_UNAVAILABLE], 'every write, orders too')
  const logged = log.text()
  t.match(logged, /database is locked/, 'the log names the cause')
  t.notMatch(logged, /no transaction is active/)
  await holder.release()
  const retried = await app.inject(newPet('idempotent', { 'idempotency-key': 'locked-1' }))
  t.equal(retried.statusCode, 201, 'the retry with the same key goes through')
  t.equal(retried.headers['idempotent-replayed'], undefined, 'as a first answer: the 503 kept nothing')
  t.equal(await rowCount(app, 'pets'), 1)
})

t.test('a full database is a 503, the log names the real cause, and writes resume once there is room', async (t) => {
  const file = join(tempDir(t), 'petstore.db')
  const log = captureLog()
  const app = await build(t, { database: { url: file }, logger: { level: 'info', stream: log.stream } })
  t.equal((await app.inject(newPet('before'))).statusCode, 201)
  // SQLite's own page limit makes the file "full" exactly as a full disk does (SQLITE_FULL).
  const { rows } = await sql<{ page_count: number }>`pragma page_count`.execute(app.db)
  await sql.raw(`pragma max_page_count = ${Number(rows[0]!.page_count)}`).execute(app.db)
  const name = 'x'.repeat(200)
  const answers: LightMyRequestResponse[] = []
  // Concurrent creates share one group commit; the page fills within a few of them.
  for (let round = 0; round < 50 && !answers.some((res) => res.statusCode === 503); round++) {
    answers.push(...await Promise.all([1, 2, 3, 4].map((i) => app.inject(newPet(name, i === 4 ? { 'idempotency-key': `full-${round}` } : {})))))
  }
  const statuses = new Set(answers.map((res) => res.statusCode))
  t.ok(statuses.has(503), 'the database filled up')
  t.same([...statuses].filter((status) => status !== 201 && status !== 503), [], 'every answer is a 201 or a 503, never a 500')
  for (const res of answers.filter((res) => res.statusCode === 503)) {
    t.same(res.json(), DATABASE_UNAVAILABLE)
    t.equal(res.headers['retry-after'], '2')
  }
  const logged = log.text()
  t.match(logged, /database or disk is full/, 'the log names the real cause')
  t.notMatch(logged, /no transaction is active/, 'not an error from cleaning up after it')
  const stored = await rowCount(app, 'pets')
  t.equal(stored, 1 + answers.filter((res) => res.statusCode === 201).length, 'every 201 is stored, nothing else')

  await sql`pragma max_page_count = 1073741823`.execute(app.db)
  t.equal((await app.inject(newPet('after'))).statusCode, 201, 'writes resume without a restart')
})

t.test('npm run keys against a live database never makes a client request fail', async (t) => {
  const file = join(tempDir(t), 'petstore.db')
  const app = await build(t, { database: { url: file }, rateLimit: { perKey: 0 } })
  const statuses: number[] = []
  let writing = true
  const writer = (async () => {
    // Set by the commands below finishing, between awaits.
    // eslint-disable-next-line no-unmodified-loop-condition
    while (writing) statuses.push((await app.inject(newPet(`during keys ${statuses.length}`))).statusCode)
  })()
  for (const name of ['one', 'two']) {
    await runScript('scripts/keys.ts', ['create', '--name', name], { DATABASE_URL: file })
    await runScript('scripts/keys.ts', ['revoke', name], { DATABASE_URL: file })
  }
  writing = false
  await writer
  t.ok(statuses.length > 0, `${statuses.length} creates ran alongside the commands`)
  t.same(statuses.filter((status) => status !== 201), [], 'every one of them a 201')
})

t.test('the schema and the writes reach the main file: after migrating, and once writes pause', async (t) => {
  const dir = tempDir(t)
  const file = join(dir, 'petstore.db')
  const app = await build(t, { database: { url: file, idleCheckpointMs: 50 } })
  // What is left if the -wal file is lost: the main file alone.
  const mainFileOnly = (name: string) => {
    const copy = join(dir, name)
    copyFileSync(file, copy)
    t.notOk(existsSync(`${copy}-wal`))
    const db = new SQLite(copy, { readonly: true })
    try {
      return Number(db.prepare('select count(*) from pets').pluck().get())
    } finally {
      db.close()
    }
  }
  t.equal(mainFileOnly('after-start.db'), 0, 'the migrated schema is in the main file')
  for (let i = 0; i < 5; i++) t.equal((await app.inject(newPet(`pet ${i}`))).statusCode, 201)
  let copies = 0
  await until(() => mainFileOnly(`idle-${copies++}.db`) === 5, 'the writes to be checkpointed into the main file')
  t.pass('the writes are in the main file')
})
