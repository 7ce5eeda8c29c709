/**
 * The response cache and categories, on whichever database this run tests: a category
 * change drops the answers made from that category, and leaves the pets' pages cached.
 */
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { categoryBody } from '../../helpers/answers.ts'

/** No background work during the test (key sync, the events' poll, webhooks). */
const quiet = { keySyncIntervalMs: 3_600_000, rowChangesPruneIntervalMs: 3_600_000, events: { pollIntervalMs: 3_600_000 }, webhooks: { pollIntervalMs: 3_600_000 } }

/**
 * Counts the answers the cache serves. Counted at the cache rather than by the queries a
 * read makes: on PostgreSQL this instance hears its own numbering pass's NOTIFY a moment
 * later, and the webhooks' look that wakes is a query that may fall within a read.
 */
function countHits (app: FastifyInstance): () => number {
  const cache = app.responseCache!
  const get = cache.get.bind(cache)
  let hits = 0
  cache.get = (key, lookup) => {
    const hit = get(key, lookup)
    if (hit !== undefined) hits++
    return hit
  }
  return () => hits
}

/** A write, once its events are numbered and their deliveries looked for (queries of their own). */
async function write (app: FastifyInstance, method: 'POST' | 'PATCH', url: string, payload: object) {
  const res = await app.inject({ method, url, headers: JSON_HEADERS, payload })
  await app.events.settled()
  await app.webhooks.settled()
  return res
}

const read = (app: FastifyInstance, url: string) => app.inject({ url, headers: AUTH })

t.test('a category edit leaves the pets\' pages cached, and drops its own answers', async (t) => {
  const app = await build(t, quiet)
  await write(app, 'POST', '/v1/categories', { name: 'Dogs' })
  await write(app, 'POST', '/v1/categories', { name: 'Cats' })
  await write(app, 'POST', '/v1/pets', { name: 'Rex', categoryId: 1 })
  const urls = ['/v1/pets', '/v1/pets?categoryId=1', '/v1/categories/2', '/v1/categories/1', '/v1/categories']
  for (const url of urls) { await read(app, url); await read(app, url) }

  await write(app, 'PATCH', '/v1/categories/1', { name: 'Hounds' })
  const hits = countHits(app)
  for (const url of ['/v1/pets', '/v1/pets?categoryId=1', '/v1/categories/2']) {
    const before = hits()
    const res = await read(app, url)
    t.equal(res.statusCode, 200, url)
    t.equal(hits() - before, 1, `${url}: still served from the cache`)
  }
  const before = hits()
  t.equal((await read(app, '/v1/categories/1')).statusCode, 200)
  t.equal(hits(), before, 'the category edited: not from the cache')
  t.equal((await read(app, '/v1/categories/1')).body, categoryBody({ id: 1, name: 'Hounds' }), 'the category edited reads as it is now')
  t.equal((await read(app, '/v1/categories')).body, `[${categoryBody({ id: 1, name: 'Hounds' })},${categoryBody({ id: 2, name: 'Cats' })}]`, 'and so does the list')
})
