/**
 * PostgreSQL in trouble while the service serves: backends terminated under load, a
 * network that stalls or is cut (through test/helpers/fault-proxy.ts), a session left idle in a
 * transaction. The service must answer every request (503 `unavailable` with Retry-After,
 * never a 500, never a hang), stay up, and serve again once the database is back.
 */
import { hash } from 'node:crypto'
import { sql } from 'kysely'
import pg from 'pg'
import t from 'tap'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import type { Test } from 'tap'
import { hashKey } from '../../src/features/api-keys/key-material.ts'
import { faultProxy } from '../helpers/fault-proxy.ts'
import { AUTH, build, JSON_HEADERS, TEST_KEY } from '../helpers/app.ts'
import { captureLog } from '../helpers/log.ts'
import { DATABASE_UNAVAILABLE, errorBody } from '../helpers/answers.ts'
import { until } from '../helpers/until.ts'
import { createPostgresDatabase, POSTGRES_ADMIN_URL, postgresSkipReason } from '../helpers/services.ts'

const skip = await postgresSkipReason()

const NO_LIMITS = { perKey: 0, anonymous: 100_000 }

type App = Awaited<ReturnType<typeof build>>

/** Every answer is one of `allowed`, and each 503 is the whole unavailable answer. */
function checkAnswers (t: Test, answers: LightMyRequestResponse[], allowed: number[]) {
  const statuses = answers.map((res) => res.statusCode)
  t.same(statuses.filter((status) => !allowed.includes(status)), [], `only ${allowed.join(', ')} among ${answers.length} answers`)
  const unavailable = answers.filter((res) => res.statusCode === 503)
  t.same(unavailable.filter((res) => JSON.stringify(res.json()) !== JSON.stringify(DATABASE_UNAVAILABLE) || res.headers['retry-after'] !== '2'), [],
    `each of the ${unavailable.length} 503s has the Error body and Retry-After`)
}

/** Requests of every kind from a few clients at once, until `stop()`; resolves with every answer. */
function load (app: App, clients = 6) {
  let running = true
  let keys = 0
  const answers: LightMyRequestResponse[] = []
  const requests = [
    () => app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'load', categoryId: 1 } }),
    () => app.inject({ method: 'POST', url: '/v1/pets', headers: { ...JSON_HEADERS, 'idempotency-key': `load-${keys++}` }, payload: { name: 'load', categoryId: 1 } }),
    () => app.inject({ url: '/v1/pets?limit=5', headers: AUTH }),
    () => app.inject({ url: '/v1/store/orders', headers: AUTH })
  ]
  const done = Promise.all(Array.from({ length: clients }, async (_, client) => {
    // `running` is cleared by stop(), between awaits.
    // eslint-disable-next-line no-unmodified-loop-condition
    for (let i = client; running; i++) answers.push(await requests[i % requests.length]!())
  }))
  return { answers, stop: async () => { running = false; await done; return answers } }
}

async function terminateBackends (database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
  await admin.connect()
  try {
    const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database])
    return rowCount ?? 0
  } finally {
    await admin.end()
  }
}

async function servesAgain (t: Test, app: App) {
  await until(async () => (await app.inject({ url: '/readyz' })).statusCode === 200, '/readyz to answer 200 again')
  await until(async () => (await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'after', categoryId: 1 } })).statusCode === 201,
    'a create to succeed again')
  t.pass('serves again, without a restart')
}

t.test('backends terminated under load: 503s, never a 500 or the end of the process', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  const log = captureLog()
  const app = await build(t, {
    database: { url, poolSize: 4 },
    rateLimit: NO_LIMITS,
    logger: { level: 'warn', stream: log.stream }
  })
  const traffic = load(app)
  const database = new URL(url).pathname.slice(1)
  let terminated = 0
  for (let round = 0; round < 5; round++) {
    const before = traffic.answers.length
    await until(() => traffic.answers.length >= before + 20, 'requests between terminations')
    terminated += await terminateBackends(database)
  }
  const answers = await traffic.stop()
  t.ok(terminated > 0, `${terminated} backends terminated while ${answers.length} requests ran`)
  checkAnswers(t, answers, [200, 201, 503])
  t.match(log.text(), /database connection lost/, 'the lost connections are logged')
  await servesAgain(t, app)
})

t.test('a stalled database: every request answered 503 within its deadline, /readyz 503, then service again', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  const proxy = await faultProxy(t, POSTGRES_ADMIN_URL)
  // Statements may take their default 5 s: the deadlines of /readyz and of each request
  // must answer well before.
  const timeouts = { connectTimeoutMs: 500 }
  const responseMs = 1500
  const app = await build(t, { database: { url: proxy.through(url), ...timeouts }, timeouts: { responseMs }, rateLimit: NO_LIMITS })
  t.equal((await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'before', categoryId: 1 } })).statusCode, 201)

  proxy.stall()
  const timed = async (request: InjectOptions) => {
    const start = performance.now()
    const res = await app.inject(request)
    return { res, ms: performance.now() - start }
  }
  const [ready, health, ...work] = await Promise.all([
    timed({ url: '/readyz' }),
    timed({ url: '/healthz' }),
    ...Array.from({ length: 12 }, (_, i) => [
      timed({ url: '/v1/pets', headers: AUTH }),
      timed({ url: '/v1/pets/1', headers: AUTH }),
      timed({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'stalled', categoryId: 1 } }),
      timed({ method: 'POST', url: '/v1/pets', headers: { ...JSON_HEADERS, 'idempotency-key': `stalled-${i}` }, payload: { name: 'stalled', categoryId: 1 } })
    ][i % 4]!)
  ])
  t.equal(health!.res.statusCode, 200, '/healthz: the process is alive')
  t.equal(ready!.res.statusCode, 503, '/readyz: the database is not')
  t.same(ready!.res.json(), errorBody('unavailable', 'Database is not answering', 503))
  // Margins for a busy machine: the bounds are the deadlines, the margin is the machine's.
  t.ok(ready!.ms < 1500 + 2500, `/readyz answered in ${Math.round(ready!.ms)} ms`)
  checkAnswers(t, work.map(({ res }) => res), [503])
  const slowest = Math.max(...work.map(({ ms }) => ms))
  t.ok(slowest < responseMs + 2500, `every request answered, the slowest in ${Math.round(slowest)} ms`)

  proxy.pass()
  await servesAgain(t, app)
})

t.test('connections cut under load (a restart, a failover): 503s, never a 500, then service again', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  const proxy = await faultProxy(t, POSTGRES_ADMIN_URL)
  const app = await build(t, { database: { url: proxy.through(url), poolSize: 4 }, rateLimit: NO_LIMITS })
  const traffic = load(app)
  for (let round = 0; round < 5; round++) {
    const before = traffic.answers.length
    await until(() => traffic.answers.length >= before + 20, 'requests between cuts')
    proxy.cut()
  }
  checkAnswers(t, await traffic.stop(), [200, 201, 503])
  await servesAgain(t, app)
})

t.test('a session left idle in a transaction loses its Idempotency-Key lock after the timeout', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  const options = { database: { url, idleInTransactionTimeoutMs: 1000 }, rateLimit: NO_LIMITS }
  const [stuck, other] = [await build(t, options), await build(t, options)]
  // The lock an idempotent create of TEST_KEY's with this key takes (src/features/idempotency/plugin.ts).
  const key = 'left-in-a-transaction'
  const scope = hash('sha256', `${hashKey(TEST_KEY)}\n${key}`, 'hex')
  const lock = String(BigInt.asIntN(64, BigInt(`0x${scope.slice(0, 16)}`)))
  let locked!: () => void
  let finished!: () => void
  const held = new Promise<void>((resolve) => { locked = resolve })
  const testDone = new Promise<void>((resolve) => { finished = resolve })
  // A handler that took the lock and then hangs without a word to the server.
  const session = stuck.db.connection().execute(async (connection) => {
    await sql`begin`.execute(connection)
    await sql`select pg_advisory_xact_lock(cast(${lock} as bigint))`.execute(connection)
    locked()
    await testDone
    await sql`rollback`.execute(connection)
  }).then(() => 'still open', (error: Error) => error.message)
  await held
  const create = () => other.inject({ method: 'POST', url: '/v1/pets', headers: { ...JSON_HEADERS, 'idempotency-key': key }, payload: { name: 'Rex', categoryId: 1 } })
  const busy = await create()
  t.equal(busy.statusCode, 409, 'in use while the session holds the lock')
  t.same(busy.json(), errorBody('idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry after it finishes', 409))
  await until(async () => (await create()).statusCode === 201, 'the key to be free again')
  t.pass('the server ended the idle session, and the key was free again')
  finished()
  t.match(await session, /not queryable/, 'the session was ended by the server')
  t.equal((await stuck.inject({ url: '/readyz' })).statusCode, 200, 'and its instance is up, with a working pool')
})
