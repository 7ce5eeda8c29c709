/**
 * `wait` on the feed: an empty page waits for the next event after its cursor and answers
 * as soon as one commits, here or on another instance sharing the database; when the wait
 * ends it is `200 []` with the same Link; waiting readers are bounded in number, and a
 * stopping service answers them at once. No test here sleeps: each waits for the reader
 * to be waiting, then makes what should answer it.
 */
import { join } from 'node:path'
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { AUTH, build, JSON_HEADERS, TEST_DATABASE, TEST_KEY, testDatabaseUrl } from '../../helpers/app.ts'
import { errorBody } from '../../helpers/answers.ts'
import { feedOf, summary } from '../../helpers/events.ts'
import { tempDir } from '../../helpers/process.ts'
import { until } from '../../helpers/until.ts'

const createPet = (app: FastifyInstance, name: string) =>
  app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name, categoryId: 1 } })

/** Sends `url`; resolves once the reader waits (or was answered) with the answer to come, wrapped so it is not awaited. */
async function waitingRead (reader: FastifyInstance, url: string): Promise<{ answer: Promise<Awaited<ReturnType<FastifyInstance['inject']>>> }> {
  // A promise of one request: inject's own result sends the request again for each `then`.
  const answer = Promise.resolve(reader.inject({ url, headers: AUTH }))
  let answered = false
  answer.then(() => { answered = true }, () => { answered = true })
  await until(() => reader.events.waiting > 0 || answered, 'the reader to wait')
  return { answer }
}

t.test('an empty page with wait answers as soon as an event after its cursor commits', async (t) => {
  const app = await build(t)
  await createPet(app, 'First')
  await feedOf(app, 1)
  const { answer: pending } = await waitingRead(app, '/v1/events?cursor=MQ&wait=30')
  await createPet(app, 'Second')
  const res = await pending
  t.equal(res.statusCode, 200)
  t.same(summary(res.json()), ['pet.created 2'], 'the event that came, not an empty page at the end of the wait')
  t.equal(res.headers.link, '</v1/events?limit=20&wait=30&cursor=Mg>; rel="next"')
  t.equal(app.events.waiting, 0)
})

t.test('an event of another type does not answer a filtered wait; one of its type does', async (t) => {
  const app = await build(t)
  const { answer: pending } = await waitingRead(app, '/v1/events?type=pet.updated&wait=30')
  await createPet(app, 'Rex')
  await feedOf(app, 1)
  t.equal(app.events.waiting, 1, 'pet.created read, and the reader waits on')
  await app.inject({ method: 'PATCH', url: '/v1/pets/1', headers: { ...AUTH, 'content-type': 'application/merge-patch+json' }, payload: { name: 'Max' } })
  t.same(summary((await pending).json()), ['pet.updated 1'])
})

t.test('a wait that ends with no event is 200 [] with the same Link', async (t) => {
  const app = await build(t)
  const res = await app.inject({ url: '/v1/events?wait=1', headers: AUTH })
  t.equal(res.statusCode, 200)
  t.equal(res.body, '[]')
  t.equal(res.headers.link, '</v1/events?limit=20&wait=1>; rel="next"')
  t.equal(res.headers['cache-control'], 'private, no-cache')
})

t.test('readers beyond the bound are refused with 503 and Retry-After; the others wait on', async (t) => {
  const app = await build(t, { events: { maxWaiting: 1 } })
  const { answer: first } = await waitingRead(app, '/v1/events?wait=30')
  const refused = await app.inject({ url: '/v1/events?wait=5', headers: AUTH })
  t.equal(refused.statusCode, 503)
  t.same(refused.json(), errorBody('unavailable', 'Too many readers are waiting for events (1); retry after the Retry-After delay, or read without wait', 503))
  t.equal(refused.headers['retry-after'], '1')
  const unbounded = await app.inject({ url: '/v1/events?wait=0', headers: AUTH })
  t.equal(unbounded.statusCode, 200, 'a read without wait is served as ever')
  await createPet(app, 'Rex')
  t.same(summary((await first).json()), ['pet.created 1'])
})

t.test('one API key may hold a tenth of the places at most: past that, 429 for it, while other keys wait on', async (t) => {
  const other = 'second-test-key-not-a-secret-00'
  const app = await build(t, { apiKeys: [TEST_KEY, other], events: { maxWaiting: 20 } })
  const read = (headers: Record<string, string>, url = '/v1/events?wait=30') => Promise.resolve(app.inject({ url, headers }))
  const mine = [read(AUTH), read(AUTH)]
  await until(() => app.events.waiting === 2, 'the key\'s two readers to wait')
  const refused = await app.inject({ url: '/v1/events?wait=30', headers: AUTH })
  t.equal(refused.statusCode, 429)
  t.equal(refused.headers['retry-after'], '1')
  t.equal(refused.headers['content-type'], 'application/json; charset=utf-8')
  t.same(refused.json(), errorBody('rate_limited', 'This API key has 2 readers waiting for events already, the most one key may; retry after the Retry-After delay, or read without wait', 429))
  t.equal((await app.inject({ url: '/v1/events?wait=0', headers: AUTH })).statusCode, 200, 'a read without wait is served as ever')
  const theirs = read({ authorization: `Bearer ${other}` })
  await until(() => app.events.waiting === 3, 'another key\'s reader to wait')
  await createPet(app, 'Rex')
  for (const answer of [...mine, theirs]) t.same(summary((await answer).json()), ['pet.created 1'])
  t.equal(app.events.waiting, 0, 'every place given back')
  const after = /^<([^>]+)>/.exec(String((await theirs).headers.link))![1]!
  const again = [read(AUTH, after), read(AUTH, after)]
  await until(() => app.events.waiting === 2, 'the key\'s places free again')
  await createPet(app, 'Tom')
  await Promise.all(again)
})

t.test('a stopping service answers its waiting readers at once', async (t) => {
  const app = await build(t)
  const { answer: pending } = await waitingRead(app, '/v1/events?wait=30')
  const began = performance.now()
  await app.close()
  const res = await pending
  t.equal(res.statusCode, 200)
  t.equal(res.body, '[]')
  // The reader asked for 30 s; a stop that waited for it would take all of them.
  t.ok(performance.now() - began < 25_000, 'the stop did not wait for the reader\'s 30 s')
})

t.test('an event committed by another instance on the same database answers a waiting reader', async (t) => {
  const url = TEST_DATABASE === 'postgres' ? await testDatabaseUrl(t) : join(tempDir(t), 'shared.db')
  const writer = await build(t, { database: { url } })
  const reader = await build(t, { database: { url } })
  const { answer: pending } = await waitingRead(reader, '/v1/events?wait=30')
  await createPet(writer, 'Rex')
  const res = await pending
  t.same(summary(res.json()), ['pet.created 1'])
})
