/**
 * The response cache: reads are served from it, and never staler than the database,
 * whoever wrote: this app, another app on the same database, or another program.
 * On PostgreSQL (`npm run test:postgres`) the same tests hold across instances, the data
 * version read with one small query (the server's snapshot) in place of the read's own.
 */
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { encodeCursor } from '../../../src/contract/paging.ts'
import { dataVersionOf, sharedPerTurn, type DataVersion, type Reading } from '../../../src/database/data-version.ts'
import { flat, ResponseCache } from '../../../src/features/response-cache/cache.ts'
import { cacheKeyOf } from '../../../src/features/response-cache/key.ts'
import { AUTH, build, JSON_HEADERS, TEST_DATABASE, testDatabaseUrl } from '../../helpers/app.ts'
import { anotherProgram } from '../../helpers/another-program.ts'
import { tempDir } from '../../helpers/process.ts'

const postgres = TEST_DATABASE === 'postgres'

/** One database for two apps: a file on SQLite (two connections), a made database on PostgreSQL. */
async function sharedUrl (t: Parameters<typeof testDatabaseUrl>[0]) {
  return postgres ? testDatabaseUrl(t) : join(tempDir(t), 'petstore.db')
}

/**
 * Creates a pet, and waits for the numbering of its event: on PostgreSQL that commits a
 * moment after the answer, and moves the data version the cache's answers are kept for.
 * And for the look for its webhook deliveries, a query of its own.
 */
async function create (app: FastifyInstance, name: string) {
  const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name, categoryId: 1 } })
  await app.events.settled()
  await app.webhooks.settled()
  return res
}
const read = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) =>
  app.inject({ url, headers: { ...AUTH, ...headers } })
/** A read asked for twice, so that its answer is in the cache (ResponseCache.admits). */
const readCached = async (app: FastifyInstance, url: string) => { await read(app, url); return read(app, url) }
const names = (body: string) => (JSON.parse(body) as Array<{ name: string }>).map((pet) => pet.name)

/**
 * An app whose background queries wait an hour (key sync, the events' poll, the look for due
 * webhook deliveries), for the tests
 * that count queries; those wait for the numbering of a write's events (`events.settled`).
 */
const quiet = { metrics: true, keySyncIntervalMs: 3_600_000, rowChangesPruneIntervalMs: 3_600_000, events: { pollIntervalMs: 3_600_000 }, webhooks: { pollIntervalMs: 3_600_000 } }

async function queries (app: FastifyInstance): Promise<number> {
  const metric = await app.prometheus!.registry.getSingleMetric('db_query_duration_seconds')!.get()
  return metric.values.filter((value) => (value as { metricName?: string }).metricName?.endsWith('_count')).reduce((sum, value) => sum + value.value, 0)
}

t.test('a read is cached from its second request on, and then costs no query but, on PostgreSQL, the data version', async (t) => {
  // No key sync and no polling for events during the test: their queries would be counted too.
  const app = await build(t, quiet)
  t.equal(app.responseCache?.waitsOnDatabase, postgres, postgres ? 'read within the deadline on PostgreSQL' : 'read in this process on SQLite')
  await create(app, 'Rex')
  const once = await read(app, '/v1/pets?limit=1')
  t.equal(app.responseCache?.size, 0, 'a URL read once is not kept')
  let before = await queries(app)
  const first = await read(app, '/v1/pets?limit=1')
  t.equal(await queries(app) - before, postgres ? 2 : 1, 'a miss asks the database')
  t.equal(first.body, once.body)
  t.equal(app.responseCache?.size, 1, 'asked for again, it is kept')
  before = await queries(app)
  const again = await read(app, '/v1/pets?limit=1')
  t.equal(again.statusCode, 200)
  t.equal(again.body, first.body)
  t.equal(again.headers.etag, first.headers.etag)
  t.equal(again.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(again.headers['cache-control'], 'private, no-cache')
  t.equal(await queries(app) - before, postgres ? 1 : 0, postgres ? 'a hit on PostgreSQL asks for the data version only' : 'the second answer came from the cache')
  const revalidated = await read(app, '/v1/pets?limit=1', { 'if-none-match': first.headers.etag as string })
  t.equal(revalidated.statusCode, 304, 'a cached answer revalidates to 304')
  t.equal(revalidated.body, '')
  t.equal(revalidated.headers.etag, first.headers.etag)
})

t.test('a cached answer is the same bytes, any character included', async (t) => {
  const app = await build(t)
  const name = 'Émile 🐕 \u2028 "quoted" \\'
  t.equal((await create(app, name)).statusCode, 201)
  const fresh = await read(app, '/v1/pets/1')
  const kept = await readCached(app, '/v1/pets/1')
  t.equal(JSON.parse(kept.body).name, name)
  t.same(kept.rawPayload, fresh.rawPayload, 'byte for byte')
  t.equal(kept.headers['content-length'], String(fresh.rawPayload.length))
  t.equal(kept.headers.etag, fresh.headers.etag)
})

t.test('a cached page keeps its Link header; the request-specific headers are fresh', async (t) => {
  const app = await build(t)
  for (const name of ['A', 'B', 'C']) await create(app, name)
  await read(app, '/v1/pets?limit=2')
  const first = await read(app, '/v1/pets?limit=2', { 'x-request-id': 'first' })
  const again = await read(app, '/v1/pets?limit=2', { 'x-request-id': 'again' })
  t.match(first.headers.link, /rel="next"/)
  t.equal(again.headers.link, first.headers.link)
  t.equal(again.headers['x-request-id'], 'again')
  t.equal(again.headers['x-content-type-options'], 'nosniff')
  t.ok(again.headers['ratelimit-remaining'])
  t.equal((await read(app, '/v1/pets/1')).headers.deprecation, (await read(app, '/v1/pets/1')).headers.deprecation)
  t.ok((await read(app, '/v1/pets/1')).headers.deprecation, 'a cached getPet still says it is deprecated')
})

t.test('a write through the API is visible at once', async (t) => {
  const app = await build(t)
  await create(app, 'First')
  const page = await readCached(app, '/v1/pets')
  t.same(names(page.body), ['First'])
  t.equal((await readCached(app, '/v1/pets/2')).statusCode, 404)
  await create(app, 'Second')
  const after = await read(app, '/v1/pets')
  t.same(names(after.body), ['First', 'Second'], 'the last page shows the new pet')
  t.not(after.headers.etag, page.headers.etag, 'with a new tag')
  t.equal((await read(app, '/v1/pets?limit=20', { 'if-none-match': page.headers.etag as string })).statusCode, 200, 'the old tag no longer matches')
  t.equal((await read(app, '/v1/pets/2')).statusCode, 200, 'a pet that was missing is found')
  await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Third', categoryId: 1, status: 'available' } })
  const status = async (url: string) => JSON.parse((await read(app, url)).body).status
  t.equal(JSON.parse((await readCached(app, '/v1/pets/3')).body).status, 'available')
  t.same(JSON.parse((await readCached(app, '/v1/pets?status=pending')).body), [])
  t.same(JSON.parse((await readCached(app, '/v1/store/orders')).body), [])
  await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: 3, quantity: 1 } })
  t.equal(JSON.parse((await readCached(app, '/v1/store/orders')).body).length, 1, 'an order placed is listed at once')
  t.equal(await status('/v1/pets/3'), 'pending', 'its pet is pending at once')
  t.same(names((await read(app, '/v1/pets?status=pending')).body), ['Third'], 'and listed as pending at once')
  await app.inject({ method: 'DELETE', url: '/v1/store/orders/1', headers: AUTH })
  t.same(JSON.parse((await read(app, '/v1/store/orders')).body), [], 'a cancelled order is gone at once')
  t.equal(await status('/v1/pets/3'), 'available', 'and its pet is available again at once')
})

t.test('a write by another instance on the same database is visible at once', async (t) => {
  const url = await sharedUrl(t)
  const one = await build(t, { database: { url } })
  const other = await build(t, { database: { url } })
  await create(one, 'First')
  t.same(names((await readCached(other, '/v1/pets')).body), ['First'])
  t.same(names((await readCached(one, '/v1/pets')).body), ['First'])
  await create(other, 'Second')
  t.same(names((await read(one, '/v1/pets')).body), ['First', 'Second'], 'the other instance sees it on its very next read')
  t.same(names((await read(one, '/v1/pets')).body), ['First', 'Second'])
  await create(one, 'Third')
  t.same(names((await read(other, '/v1/pets')).body), ['First', 'Second', 'Third'])
})

t.test('a change by another program is visible at once, even to a row the API never changes', async (t) => {
  const url = await sharedUrl(t)
  const app = await build(t, { database: { url } })
  await create(app, 'Rex')
  t.equal(JSON.parse((await readCached(app, '/v1/pets/1')).body).name, 'Rex')
  t.same(names((await readCached(app, '/v1/pets')).body), ['Rex'])
  t.equal(app.responseCache?.size, 2, 'both answers are in the cache')
  // The sqlite3 shell on the file, or psql on the database.
  const run = await anotherProgram(t, url)
  await run("update pets set name = 'Renamed' where id = 1")
  t.equal(JSON.parse((await read(app, '/v1/pets/1')).body).name, 'Renamed')
  t.same(names((await read(app, '/v1/pets')).body), ['Renamed'])
  await run("insert into pets (name, category_id) values ('Outsider', 2)")
  t.same(names((await read(app, '/v1/pets')).body), ['Renamed', 'Outsider'])
})

t.test('RESPONSE_CACHE_MB=0 turns the cache off', async (t) => {
  const app = await build(t, { responseCacheBytes: 0 })
  t.equal(app.responseCache, undefined)
  await create(app, 'Rex')
  t.equal((await read(app, '/v1/pets')).statusCode, 200)
})

const FIXED: Reading = { version: [1, 0], changes: [] }

t.test('an answer made from anything is served only to lookups that read the version it was read at', async (t) => {
  let version: DataVersion = [1, 0]
  let reading: Reading = { version, changes: [] }
  const cache = new ResponseCache({ waitsOnDatabase: false, read: async () => reading.version === version ? reading : (reading = { version, changes: [] }) }, 1 << 20)
  const answer = { body: '[]', etag: '"x"', headers: {} }
  const before = await cache.version()
  t.equal(await cache.version(), before, 'the same version while nothing moves')
  cache.keep('/v1/pets', before, answer)
  t.match(cache.get('/v1/pets', before), answer)
  version = [1, 1]
  const now = await cache.version()
  t.equal(cache.get('/v1/pets', now), undefined, 'another connection committed: not served')
  t.equal(cache.size, 0, 'and emptied')
  cache.keep('/v1/pets', before, answer)
  t.equal(cache.size, 0, 'an answer whose query began before the move is not kept')
  cache.keep('/v1/pets', now, answer)
  t.match(cache.get('/v1/pets', now), answer)
})

t.test('versions read with a query (PostgreSQL): an answer made from anything is served under its own version only, whatever order the reads end in', async (t) => {
  const versions = ['10:12:', '10:13:12', '10:13:']
  let reads = 0
  const cache = new ResponseCache({ waitsOnDatabase: true, read: async () => ({ version: versions[reads++]!, changes: [] }) }, 1 << 20)
  t.equal(cache.waitsOnDatabase, true)
  const answer = { body: '[]', etag: '"x"', headers: {} }
  const first = await cache.version()
  cache.keep('listPets', first, answer)
  t.match(cache.get('listPets', first), answer)
  const second = await cache.version()
  t.equal(cache.get('listPets', second), undefined, 'a transaction began: the kept answer is not served')
  cache.keep('listPets', first, answer)
  t.equal(cache.get('listPets', second), undefined, 'nor kept again under the old version')
  const third = await cache.version()
  cache.keep('listPets', third, answer)
  t.equal(cache.get('listPets', second), undefined, 'a lookup that read an older version never gets a newer answer')
  t.match(cache.get('listPets', third), answer)
})

t.test('a version read with a query is shared by the reads asked for in one turn, and taken after the last of them', async (t) => {
  const events: string[] = []
  let reads = 0
  const shared = sharedPerTurn(async () => { events.push('query sent'); return `version ${++reads}` })
  const first = shared()
  events.push('another request arrives')
  const second = shared()
  t.equal(second, first, 'one read for both')
  t.same(await Promise.all([first, second]), ['version 1', 'version 1'])
  t.same(events, ['another request arrives', 'query sent'], 'sent after every request sharing it had asked')
  t.equal(await shared(), 'version 2', 'a read asked for once the query was sent waits for the next one')

  let fail = true
  const failing = sharedPerTurn(async () => { if (fail) throw new Error('stalled'); return 'fresh' })
  const refused = await Promise.allSettled([failing(), failing()])
  t.same(refused.map((outcome) => outcome.status), ['rejected', 'rejected'], 'a failed read fails every request that shared it')
  fail = false
  t.equal(await failing(), 'fresh', 'and the next read is a new query')
})

t.test('on SQLite too the reads of one turn share one data version, read after the last of them', { skip: postgres && 'SQLite only' }, async (t) => {
  const url = await sharedUrl(t)
  const app = await build(t, { database: { url } })
  const reader = dataVersionOf(app.db)!
  t.equal(reader.waitsOnDatabase, false, 'read in this process')
  const before = await reader.read()
  const run = await anotherProgram(t, url)
  const first = reader.read()
  // Another connection commits after the first read was asked for, in the same turn.
  await run("insert into pets (name, category_id) values ('Outsider', 2)")
  const second = reader.read()
  t.equal(second, first, 'one read for both')
  t.not((await first).version, before.version, 'taken after the commit, so the first sees it too')
  t.same((await first).changes, [{ table: 'pets', id: 1n }], 'with the row it changed')
  const again = await reader.read()
  t.equal(again.version, (await first).version, 'the same version while nothing moves')
  t.same(again.changes, [], 'and no change since')
})

t.test('concurrent hits read the data version once: on PostgreSQL one query for them all', async (t) => {
  const app = await build(t, quiet)
  await create(app, 'Rex')
  const first = await readCached(app, '/v1/pets?limit=1')
  const before = await queries(app)
  const hits = await Promise.all(Array.from({ length: 10 }, () => read(app, '/v1/pets?limit=1')))
  t.same(hits.map((hit) => hit.statusCode), Array(10).fill(200))
  t.ok(hits.every((hit) => hit.body === first.body && hit.headers.etag === first.headers.etag), 'each the cached answer')
  t.equal(await queries(app) - before, postgres ? 1 : 0, postgres ? 'one data version query for the ten' : 'no query on SQLite')
  // Each is as fresh as a read of its own: a write acknowledged before them is in every answer.
  await create(app, 'Max')
  const after = await Promise.all(Array.from({ length: 10 }, () => read(app, '/v1/pets?limit=2')))
  t.ok(after.every((hit) => hit.statusCode === 200 && names(hit.body).join() === 'Rex,Max'), 'the write is in every answer')
})

t.test('flat: the same text, any character included', async (t) => {
  for (const text of ['', '[]', '{"name":"Émile 🐕"}', 'a'.repeat(10_000) + 'ü']) t.equal(flat(text), text)
  t.equal(flat(['{"a":', '1}'].join('')), '{"a":1}')
})

t.test('the cache holds no more than its size', async (t) => {
  const cache = new ResponseCache({ waitsOnDatabase: false, read: async () => FIXED }, 10_000)
  const version = await cache.version()
  for (let i = 0; i < 100; i++) cache.keep(`/v1/pets/${i}`, version, { body: 'x'.repeat(1000), etag: '"x"', headers: {} })
  t.ok(cache.size <= 10, `${cache.size} answers kept`)
  t.ok(cache.get('/v1/pets/99', version), 'the newest are kept')
})

t.test('an answer is kept from its second miss on', async (t) => {
  const cache = new ResponseCache({ waitsOnDatabase: false, read: async () => FIXED }, 1 << 20)
  t.equal(cache.admits('listPets?limit=20'), false, 'first miss: remembered, not kept')
  t.equal(cache.admits('listPets?limit=20'), true, 'second miss: kept')
  t.equal(cache.seenOnceBytes, 0, 'and no longer counted as seen once')
  t.equal(cache.admits('listPets?limit=20'), false, 'then remembered afresh, should it be pushed out and missed again')
})

t.test('once full, a newcomer is kept one time in sixteen, still remembered when refused, and at once again when a write makes room', async (t) => {
  let draw = 0.5
  let reading = FIXED
  const cache = new ResponseCache({ waitsOnDatabase: false, read: async () => reading }, 10_000, () => draw)
  const lookup = await cache.version()
  const answer = { body: 'x'.repeat(800), etag: '"x"', headers: {} }
  const missedTwice = (key: string) => cache.admits(key) || cache.admits(key)
  let kept = 0
  for (; !cache.full; kept++) {
    if (!missedTwice(`getPet/${kept}`)) return t.fail(`refused with room left, after ${kept} kept`)
    cache.keep(`getPet/${kept}`, lookup, answer, [{ table: 'pets', id: BigInt(kept + 1) }])
  }
  t.equal(cache.size, kept - 1, `${kept} kept, the last pushing the oldest out: full`)
  t.equal(missedTwice('getPet/new'), false, 'full: a newcomer drawing 0.5 is refused')
  t.equal(cache.admits('getPet/new'), false, 'and again')
  draw = 1 / 16 - 0.001
  t.equal(cache.admits('getPet/new'), true, 'kept as soon as it draws under 1/16: refused, it stayed remembered')
  t.equal(cache.admits('getPet/new'), false, 'its next miss is a first one again')
  t.equal(cache.admits('getPet/other'), false, 'a key missed once is never kept, whatever it draws')
  draw = 1 / 16
  t.equal(cache.admits('getPet/other'), false, 'a draw of 1/16 is refused')

  reading = { version: FIXED.version, changes: [{ table: 'pets', id: BigInt(kept) }] }
  await cache.version()
  t.equal(cache.full, false, 'a write dropped an answer: room again')
  draw = 0.5
  t.equal(missedTwice('getPet/after'), true, 'with room, a newcomer is kept from its second miss, whatever it draws')
})

t.test('keys seen once cost at most an eighth of the cache, and are forgotten all at once past it', async (t) => {
  const maxBytes = 80_000
  const cache = new ResponseCache({ waitsOnDatabase: false, read: async () => FIXED }, maxBytes)
  const budget = maxBytes / 8
  t.equal(cache.admits('listPets?cursor=first'), false)
  let cleared = false
  for (let i = 0; i < 2000; i++) {
    const before = cache.seenOnceBytes
    cache.admits(`listPets?cursor=${i}&${'x'.repeat(i % 3000)}`)
    if (cache.seenOnceBytes < before) cleared = true
    if (cache.seenOnceBytes > budget) return t.fail(`${cache.seenOnceBytes} bytes seen once, over ${budget}`)
  }
  t.ok(cleared, 'full, then forgotten')
  t.ok(cache.seenOnceBytes > 0 && cache.seenOnceBytes <= budget, `${cache.seenOnceBytes} bytes, at most ${budget}`)
  t.equal(cache.admits('listPets?cursor=first'), false, 'the first key was forgotten with the rest')
  const before = cache.seenOnceBytes
  const huge = `listPets?cursor=${'y'.repeat(budget)}`
  t.equal(cache.admits(huge), false)
  t.equal(cache.admits(huge), false, 'a key longer than the whole budget is never remembered')
  t.equal(cache.seenOnceBytes, before, 'nor does it push the others out')
})

t.test('the key is the operation and its validated parameters, in one order, injective', async (t) => {
  const keyOf = cacheKeyOf('listPets', [], ['status', 'limit', 'cursor'])
  t.equal(keyOf({}, { limit: 20 }), 'listPets?limit=20')
  t.equal(keyOf(undefined, { status: 'sold', limit: 5 }), 'listPets?limit=5&status=sold')
  t.equal(keyOf({}, { limit: 5, status: 'sold' }), 'listPets?limit=5&status=sold', 'whatever the order of the query')
  t.equal(keyOf({}, { cursor: 'MjA', limit: 5, status: undefined }), 'listPets?cursor=MjA&limit=5')
  t.not(keyOf({}, { cursor: 'MjA&limit=5', limit: 20 }), keyOf({}, { cursor: 'MjA', limit: 5 }), 'no value passes for a separator')
  t.equal(keyOf({}, { cursor: 'a&b=c', limit: 1 }), 'listPets?cursor=a%26b%3Dc&limit=1')
  t.equal(keyOf({}, { cursor: '', limit: 1 }), 'listPets?cursor=&limit=1', 'an empty value is not an absent one')
  const byId = cacheKeyOf('getPet', ['petId'], [])
  t.equal(byId({ petId: 1 }, {}), 'getPet/1')
  t.equal(byId({ petId: 9223372036854775807n }, null), 'getPet/9223372036854775807')
  const both = cacheKeyOf('op', ['b', 'a'], ['tags'])
  t.equal(both({ a: 'x/y', b: 2 }, { tags: ['p,q', 'r'] }), 'op/x%2Fy/2?tags=[p%2Cq,r]')
  t.not(both({ a: 1, b: 2 }, { tags: ['p,q'] }), both({ a: 1, b: 2 }, { tags: ['p', 'q'] }))
})

t.test('spellings of one query share one entry, and its answer is the handler\'s own', async (t) => {
  const app = await build(t, quiet)
  for (const name of ['A', 'B', 'C']) await create(app, name)
  const spellings: string[][] = [
    ['/v1/pets?limit=2', '/v1/pets?&limit=2&', '/v1/pets?limit=002'],
    ['/v1/pets', '/v1/pets?limit=20', '/v1/pets?&&limit=20&&'],
    ['/v1/pets?status=available&limit=2', '/v1/pets?limit=2&status=available', '/v1/pets?limit=02&&status=available'],
    [`/v1/pets?limit=1&cursor=${encodeCursor(1)}`, `/v1/pets?cursor=${encodeCursor(1)}&limit=1`, `/v1/pets?cursor=${encodeCursor(1)}&limit=01&`],
    ['/v1/pets/1', '/v1/pets/01', '/v1/pets/001'],
    ['/v1/store/orders', '/v1/store/orders?limit=20', '/v1/store/orders?limit=20&']
  ]
  for (const [first, second, third] of spellings as Array<[string, string, string]>) {
    const fresh = [await read(app, first), await read(app, second)]
    const before = await queries(app)
    const hit = await read(app, third)
    t.equal(await queries(app) - before, postgres ? 1 : 0, `${third}: from the cache${postgres ? ', after the data version' : ''}`)
    for (const answer of [...fresh, hit]) {
      t.equal(answer.statusCode, 200, first)
      t.equal(answer.body, fresh[0]!.body, first)
      t.equal(answer.headers.etag, fresh[0]!.headers.etag, first)
      t.equal(answer.headers.link, fresh[0]!.headers.link, first)
      t.equal(answer.headers['content-type'], 'application/json; charset=utf-8', first)
    }
  }
  t.match((await read(app, '/v1/pets?&limit=2&')).headers.link, /^<\/v1\/pets\?limit=2&cursor=Mg>; rel="next"$/, 'the Link is rebuilt from the parsed query')
  t.equal(app.responseCache?.size, spellings.length, 'one entry for each query')
})

t.test('long spellings of many queries cost the doorkeeper their canonical key only', async (t) => {
  const app = await build(t)
  await create(app, 'Rex')
  for (let i = 1; i <= 300; i++) {
    const res = await read(app, `/v1/pets?${'&'.repeat(12_000)}cursor=${encodeCursor(i)}`)
    if (res.statusCode !== 200) return t.fail(res.body)
  }
  const seen = app.responseCache!.seenOnceBytes
  t.ok(seen > 0 && seen < 300 * 100, `${seen} bytes for 300 URLs of 12 KB each`)
})
