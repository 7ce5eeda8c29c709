/**
 * Events are kept EVENT_RETENTION_DAYS, then deleted in batches; a cursor from before the
 * oldest event kept goes on from the oldest there is, and an expired event is a 404.
 */
import { join } from 'node:path'
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { AUTH, build, JSON_HEADERS, TEST_DATABASE, testDatabaseUrl } from '../../helpers/app.ts'
import { errorBody } from '../../helpers/answers.ts'
import { feedOf, readFeed, summary } from '../../helpers/events.ts'
import { tempDir } from '../../helpers/process.ts'
import { rowCount } from '../../helpers/store.ts'
import { until } from '../../helpers/until.ts'
import { deleteExpiredEvents, RETENTION_BATCH } from '../../../src/features/events/retention.ts'
import { encodeCursor } from '../../../src/contract/paging.ts'

const DAY = 24 * 60 * 60 * 1000

async function createPets (app: FastifyInstance, count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: `pet ${i}`, categoryId: 1 } })
    if (res.statusCode !== 201) throw new Error(res.body)
  }
}

/** Dates the first `count` events (by sequence) `days` ago. */
async function age (app: FastifyInstance, count: number, days: number): Promise<void> {
  const old = new Date(Date.now() - days * DAY).toISOString()
  const rows = await app.db.selectFrom('events').select('sequence').orderBy('sequence').limit(count).execute()
  await app.db.updateTable('events').set({ occurred_at: old }).where('sequence', 'in', rows.map((row) => row.sequence)).execute()
}

t.test('events older than the retention go; a cursor from before them goes on from the oldest kept', async (t) => {
  const app = await build(t)
  await createPets(app, 3)
  const [first] = await feedOf(app, 3)
  await age(app, 2, 31)
  t.equal(await deleteExpiredEvents(app.db, new Date(Date.now() - 30 * DAY)), 2)
  t.equal(await deleteExpiredEvents(app.db, new Date(Date.now() - 30 * DAY)), 0, 'nothing twice')
  t.same(summary((await readFeed(app)).events), ['pet.created 3'])
  t.same(summary((await readFeed(app, `/v1/events?cursor=${encodeCursor(first!.sequence)}`)).events), ['pet.created 3'], 'the old cursor still works')
  const gone = await app.inject({ url: `/v1/events/${first!.id}`, headers: AUTH })
  t.equal(gone.statusCode, 404)
  t.same(gone.json(), errorBody('not_found', `Event ${first!.id} not found`, 404))
})

t.test('many expired events go in batches, and the young ones stay', async (t) => {
  const app = await build(t, { rateLimit: { perKey: 0 } })
  const count = RETENTION_BATCH * 2 + 10
  await createPets(app, count + 5)
  await feedOf(app, count + 5)
  await age(app, count, 40)
  t.equal(await deleteExpiredEvents(app.db, new Date(Date.now() - 30 * DAY)), count)
  t.equal(await rowCount(app, 'events'), 5)
})

t.test('the service deletes what expired when it starts, and numbers go on above the deleted', async (t) => {
  const url = TEST_DATABASE === 'postgres' ? await testDatabaseUrl(t) : join(tempDir(t), 'events.db')
  const before = await build(t, { database: { url } })
  await createPets(before, 2)
  await feedOf(before, 2)
  await age(before, 2, 31)
  await before.close()
  const app = await build(t, { database: { url } })
  // As listening does.
  await app.ready()
  await until(async () => await rowCount(app, 'events') === 0, 'the expired events deleted at start')
  await createPets(app, 1)
  const [next] = await feedOf(app, 1)
  t.equal(Number(next!.sequence), 3, 'a number never given before')
})
