/**
 * The migrations, on whichever database this run tests: every one goes down as cleanly as
 * it went up, so a release can be rolled back, and a failing one is named.
 */
import { readdirSync } from 'node:fs'
import { NO_MIGRATIONS, sql } from 'kysely'
import t from 'tap'
import { DEFAULTS } from '../../src/config/defaults.ts'
import { connect } from '../../src/database/connect.ts'
import { MIGRATIONS, migrateToLatest, migrator } from '../../src/database/migrate.ts'
import { testDatabaseUrl } from '../helper.ts'

t.test('the service applies every file of migrations/, and only those', async (t) => {
  const files = readdirSync(new URL('../../migrations', import.meta.url)).map((file) => file.replace(/\.ts$/, '')).sort()
  t.same(Object.keys(MIGRATIONS), files)
})

t.test('every migration goes down and up again', async (t) => {
  const db = await connect({ ...DEFAULTS.database, url: await testDatabaseUrl(t) })
  t.teardown(() => db.destroy())
  const applied = await migrateToLatest(db)
  t.ok(applied.length >= 4)
  const down = await migrator(db).migrateTo(NO_MIGRATIONS)
  t.equal(down.error, undefined)
  t.same(down.results?.map((result) => result.direction), applied.map(() => 'Down'))
  const tables = await db.introspection.getTables()
  t.same(tables.map((table) => table.name).filter((name) => !name.startsWith('kysely_')), [], 'nothing is left but the migrator\'s own tables')
  t.same((await migrateToLatest(db)).map((result) => result.migrationName), applied.map((result) => result.migrationName), 'and all come back')
})

t.test('a migration that fails is named, with its cause', async (t) => {
  const db = await connect({ ...DEFAULTS.database, url: await testDatabaseUrl(t) })
  t.teardown(() => db.destroy())
  // A table made by hand, in the way of the first migration.
  await sql`create table pets (id integer)`.execute(db)
  const error = await migrateToLatest(db).then(() => undefined, (thrown: Error) => thrown)
  t.equal(error?.message, 'migration 20261122000000_create_pets failed')
  t.match(String((error?.cause as Error | undefined)?.message), /already exists/)
})
