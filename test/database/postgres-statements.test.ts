/**
 * PostgreSQL: the queries written with `prepare` run as named statements, parsed once per
 * connection, and a statement that no longer fits the tables (another instance migrated
 * them meanwhile) never fails a request it can still serve. Each test makes its own
 * database; one connection, so every request uses the connection the test looks at.
 */
import t, { type Test } from 'tap'
import pg from 'pg'
import { sql } from 'kysely'
import { buildApp } from '../../src/app.ts'
import { createPostgresDatabase, postgresSkipReason } from '../helpers/services.ts'
import { AUTH, JSON_HEADERS, TEST_KEY } from '../helpers/app.ts'
import { DATABASE_UNAVAILABLE, petBody } from '../helpers/answers.ts'

const skip = await postgresSkipReason()

async function build (t: Test, url: string) {
  const app = await buildApp({ database: { url, poolSize: 1 }, apiKeys: [TEST_KEY], pressure: { maxEventLoopDelayMs: 0 }, events: { pollIntervalMs: 60_000 } })
  t.teardown(() => app.close())
  return app
}

/** The statements the pool's one connection has prepared. */
async function prepared (app: Awaited<ReturnType<typeof build>>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from pg_prepared_statements order by name`.execute(app.db)
  return rows.map((row) => row.name)
}

/** Changes the pets table from another connection, as another instance's migration would. */
async function alterPets (url: string, change: string): Promise<void> {
  const other = new pg.Client({ connectionString: url })
  await other.connect()
  try { await other.query(`alter table pets ${change}`) } finally { await other.end() }
}

const createPet = { method: 'POST' as const, url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1, status: 'available' } }

t.test('a prepared query is parsed once per connection: its second run prepares nothing more', { skip }, async (t) => {
  const app = await build(t, await createPostgresDatabase(t))
  t.equal((await app.inject(createPet)).statusCode, 201)
  await app.events.settled()
  await app.webhooks.settled()
  const once = await prepared(app)
  t.ok(once.length > 0 && once.every((name) => name.startsWith('petstore_')), `named statements: ${once.join(', ')}`)
  t.equal((await app.inject(createPet)).statusCode, 201)
  // Two reads: the first looks up the data version alone, the second what changed since.
  t.equal((await app.inject({ url: '/v1/pets/1', headers: AUTH })).statusCode, 200)
  t.equal((await app.inject({ url: '/v1/pets/2', headers: AUTH })).statusCode, 200)
  await app.events.settled()
  await app.webhooks.settled()
  const again = await prepared(app)
  t.ok(again.length > once.length, 'getPet and the look for changes prepared their own')
  const { rows: looks } = await sql<{ name: string }>`select name from pg_prepared_statements where statement like '%pg_visible_in_snapshot%'`.execute(app.db)
  t.equal(looks.length, 1, 'the look for changes, which runs once per turn of the event loop, is a named statement')
  t.equal((await app.inject({ url: '/v1/pets/1', headers: AUTH })).statusCode, 200)
  t.equal((await app.inject(createPet)).statusCode, 201)
  await app.events.settled()
  await app.webhooks.settled()
  t.same(await prepared(app), again, 'the same queries again prepare nothing')
})

t.test('a column added under a prepared select: the read is answered, and the connection replaced', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  const app = await build(t, url)
  t.equal((await app.inject(createPet)).statusCode, 201)
  t.equal((await app.inject({ url: '/v1/pets/1', headers: AUTH })).statusCode, 200)
  await alterPets(url, 'add column zz_fixture_only text')
  const read = await app.inject({ url: '/v1/pets/1', headers: AUTH })
  t.equal(read.statusCode, 200)
  t.equal(read.body, petBody({ id: 1, name: 'Rex', categoryId: 1, status: 'available' }))
  t.same(await prepared(app), [], 'a new connection, which has prepared nothing yet')
  t.equal((await app.inject({ url: '/v1/pets/1', headers: AUTH })).statusCode, 200)
  t.equal((await app.inject(createPet)).statusCode, 201, 'creates go on')
})

t.test('a column added under a prepared statement of a transaction: one 503 to retry, then served', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  const app = await build(t, url)
  const patch = (name: string) => app.inject({ method: 'PATCH', url: '/v1/pets/1', headers: { ...AUTH, 'content-type': 'application/merge-patch+json' }, payload: { name } })
  t.equal((await app.inject(createPet)).statusCode, 201)
  t.equal((await patch('Max')).statusCode, 200)
  await alterPets(url, 'add column zz_fixture_only text')
  const refused = await patch('Bella')
  t.equal(refused.statusCode, 503)
  t.same(refused.json(), DATABASE_UNAVAILABLE)
  t.equal(refused.headers['retry-after'], '2')
  t.equal((await app.inject({ url: '/v1/pets/1', headers: AUTH })).json().name, 'Max', 'the refused patch changed nothing')
  const retried = await patch('Bella')
  t.equal(retried.statusCode, 200)
  t.equal(retried.json().name, 'Bella')
})
