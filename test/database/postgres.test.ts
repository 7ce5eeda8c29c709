/**
 * The same service on PostgreSQL: the same migrations and repository code through Kysely's
 * PostgreSQL dialect. Each test makes its own database and drops it afterwards.
 */
import t from 'tap'
import { buildApp, type AppOptions } from '../../src/app.ts'
import { createApiKey, revokeApiKeys } from '../../src/features/api-keys/repository.ts'
import pg from 'pg'
import { createPostgresDatabase, POSTGRES_ADMIN_URL, postgresSkipReason } from '../helpers/services.ts'
import { AUTH, JSON_HEADERS, TEST_KEY } from '../helpers/app.ts'
import { captureLog } from '../helpers/log.ts'
import { DATABASE_UNAVAILABLE, errorBody, petBody } from '../helpers/answers.ts'
import { until } from '../helpers/until.ts'

const skip = await postgresSkipReason()

const READY_UNAVAILABLE = errorBody('unavailable', 'Database is not answering', 503)

async function withApps (url: string, count: number, use: (...apps: Awaited<ReturnType<typeof buildApp>>[]) => Promise<void>, options: Partial<AppOptions> = {}) {
  const apps = []
  try {
    // Without overload shedding: beside the other test files the event loop lags, and a 503
    // would read as a write one instance did not see.
    for (let i = 0; i < count; i++) apps.push(await buildApp({ database: { url }, apiKeys: [TEST_KEY], pressure: { maxEventLoopDelayMs: 0 }, ...options }))
    await use(...apps)
  } finally {
    for (const app of apps) await app.close()
  }
}

t.test('pets on PostgreSQL: create, int64 extremes, paging, get, persistence', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  await withApps(url, 1, async (app) => {
    for (const [i, categoryId] of ['1', '9007199254740991', '9007199254740993', '9223372036854775807'].entries()) {
      const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: `{"name":"pet ${i}","categoryId":${categoryId}${i % 2 === 0 ? ',"status":"sold"' : ''}}` })
      t.equal(res.statusCode, 201)
      t.equal(res.body, petBody({ id: i + 1, name: `pet ${i}`, categoryId: BigInt(categoryId), status: i % 2 === 0 ? 'sold' : undefined }))
    }
    const page = await app.inject({ url: '/v1/pets?limit=2&status=sold', headers: AUTH })
    t.equal(page.body, '[{"id":1,"name":"pet 0","categoryId":1,"status":"sold"},{"id":3,"name":"pet 2","categoryId":9007199254740993,"status":"sold"}]')
    t.equal(page.headers.link, undefined)
    const first = await app.inject({ url: '/v1/pets?limit=3', headers: AUTH })
    t.equal(first.headers.link, '</v1/pets?limit=3&cursor=Mw>; rel="next"')
    const next = await app.inject({ url: '/v1/pets?limit=3&cursor=Mw', headers: AUTH })
    t.equal(next.body, '[{"id":4,"name":"pet 3","categoryId":9223372036854775807}]')
    const got = await app.inject({ url: '/v1/pets/4', headers: AUTH })
    t.equal(got.statusCode, 200)
    t.equal(got.headers.deprecation, '@1795305600')
    t.equal((await app.inject({ url: '/v1/pets/9223372036854775807', headers: AUTH })).statusCode, 404)
    t.equal((await app.inject({ url: '/readyz' })).statusCode, 200)
  })
  await withApps(url, 1, async (app) => {
    const res = await app.inject({ url: '/v1/pets?limit=100', headers: AUTH })
    t.equal(res.json().length, 4, 'a restart keeps everything')
    const created = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'after', categoryId: 1 } })
    t.equal(created.json().id, 5, 'ids go on from where they were')
  })
})

t.test('several instances share one PostgreSQL: unique ids under concurrency, one key store', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  await withApps(url, 2, async (a, b) => {
    const responses = await Promise.all(Array.from({ length: 100 }, (_, i) =>
      (i % 2 === 0 ? a : b).inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: `pet ${i}`, categoryId: 1 } })))
    t.ok(responses.every((res) => res.statusCode === 201))
    const ids = responses.map((res) => res.json().id as number)
    t.equal(new Set(ids).size, 100, '100 distinct ids')
    const listed = await b.inject({ url: '/v1/pets?limit=100', headers: AUTH })
    t.same(listed.json().map((pet: { id: number }) => pet.id), [...ids].sort((x, y) => x - y), 'each instance sees every pet, in id order')

    const { key } = await createApiKey(a.db, { name: 'shared', scopes: a.apiKeys.everyScope })
    await b.apiKeys.sync(b)
    const headers = { authorization: `Bearer ${key}` }
    t.equal((await b.inject({ url: '/v1/pets', headers })).statusCode, 200, 'a key made through one instance works on the other')
  }, { apiKeys: [TEST_KEY], rateLimit: { perKey: 0, anonymous: 1000 } })
})

t.test('a key-use write that waits on a row lock never holds back the reload of the keys', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  await withApps(url, 1, async (app) => {
    const scopes = app.apiKeys.everyScope
    const used = await createApiKey(app.db, { name: 'used', scopes })
    const doomed = await createApiKey(app.db, { name: 'doomed', scopes })
    await app.apiKeys.sync(app)
    const call = (key: string) => app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${key}` } })
    t.equal((await call(used.key)).statusCode, 200, 'a use to write')
    // Another session holds the used key's row, as a long transaction or a backup might.
    const holder = new pg.Client({ connectionString: url })
    await holder.connect()
    t.teardown(() => holder.end())
    await holder.query('begin')
    await holder.query('select 1 from api_keys where name = $1 for update', ['used'])
    const waiting = app.apiKeys.sync(app)
    await revokeApiKeys(app.db, { name: 'doomed' })
    await until(async () => {
      // Each sync reloads anew, while the write it would also wait for is still held up.
      app.apiKeys.sync(app).catch(() => {})
      return (await call(doomed.key)).statusCode === 401
    }, 'the revoked key to be refused while the write waits')
    t.pass('the revoked key is refused while the write of key use waits')
    await holder.query('rollback')
    await waiting
    const [row] = await app.db.selectFrom('api_keys').select('last_used_at').where('name', '=', 'used').execute()
    t.not(row?.last_used_at, null, 'and once the lock is gone, the use is written')
  })
})

t.test('one Idempotency-Key sent 30 times at once to two instances makes exactly one record', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  await withApps(url, 2, async (a, b) => {
    const responses = await Promise.all(Array.from({ length: 30 }, (_, i) =>
      (i % 2 === 0 ? a : b).inject({ method: 'POST', url: '/v1/pets', headers: { ...JSON_HEADERS, 'idempotency-key': 'two-instances' }, payload: { name: 'Rex', categoryId: 1 } })))
    const statuses = responses.map((res) => res.statusCode)
    t.ok(statuses.every((status) => status === 201 || status === 409), `201s and 409s only: ${statuses.join(' ')}`)
    t.same(new Set(responses.filter((res) => res.statusCode === 201).map((res) => res.json().id)), new Set([1]), 'no second id')
    t.equal((await a.db.selectFrom('pets').selectAll().execute()).length, 1)
    const replay = await b.inject({ method: 'POST', url: '/v1/pets', headers: { ...JSON_HEADERS, 'idempotency-key': 'two-instances' }, payload: { name: 'Rex', categoryId: 1 } })
    t.equal(replay.headers['idempotent-replayed'], 'true', 'either instance replays it afterwards')
  }, { rateLimit: { perKey: 0, anonymous: 1000 } })
})

t.test('a PostgreSQL connection killed under the service does not crash it', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  const log = captureLog()
  await withApps(url, 1, async (app) => {
    t.equal((await app.inject({ url: '/readyz' })).statusCode, 200)
    // Ends every connection of this database from the server side, as a restart would.
    const name = new URL(url).pathname.slice(1)
    const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
    await admin.connect()
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name])
    await admin.end()
    await until(() => log.text().includes('database connection lost'), 'the pool to notice')
    // Each pooled connection learns of its end on its own: a request given one whose notice
    // has not arrived yet gets a 503 with Retry-After, and the next ones a new connection.
    for (const [url, headers, unavailable] of [['/readyz', {}, READY_UNAVAILABLE], ['/v1/pets', AUTH, DATABASE_UNAVAILABLE]] as const) {
      const refusals: Array<{ status: number, retryAfter: boolean, body: unknown }> = []
      await until(async () => {
        const res = await app.inject({ url, headers })
        if (res.statusCode === 200) return true
        refusals.push({ status: res.statusCode, retryAfter: res.headers['retry-after'] !== undefined, body: res.json() })
        return false
      }, `${url} to answer 200 again`)
      t.pass(`the pool reconnects: ${url} answers 200`)
      t.same(refusals, refusals.map(() => ({ status: 503, retryAfter: true, body: unavailable })), 'each request before, a 503 with Retry-After')
    }
  }, { logger: { level: 'warn', stream: log.stream } })
  t.match(log.text(), /database connection lost/, 'the lost connection is logged')
})
