/**
 * The migrations, on whichever database this run tests: every one goes down as cleanly as
 * it went up, so a release can be rolled back; a failing one is named; and what the
 * database has applied must agree with what the service carries, or nothing runs.
 */
import { NO_MIGRATIONS, sql, type Kysely, type Migration } from 'kysely'
import t from 'tap'
import { DEFAULTS } from '../../src/config/defaults.ts'
import { MIGRATIONS } from '../../generated/migrations.ts'
import { connect } from '../../src/database/connect.ts'
import { migrationFiles } from '../../src/database/migration-files.ts'
import { migrateToLatest, migrator, SERVICE_MIGRATIONS } from '../../src/database/migrate.ts'
import { testDatabaseUrl } from '../helpers/app.ts'

t.test('the service applies every file of migrations/, and only those', async (t) => {
  t.same(Object.keys(MIGRATIONS), migrationFiles(SERVICE_MIGRATIONS.folder)?.map((file) => file.name))
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

const names = Object.keys(MIGRATIONS)
/** Why migrating with these migrations (and no folder of files to check them against) fails. */
async function refusal (db: Kysely<any>, migrations: Record<string, Migration>): Promise<Error | undefined> {
  const source = { migrations, folder: new URL('./no-such-folder/', import.meta.url) }
  return migrateToLatest(db, source).then(() => undefined, (thrown: Error) => thrown)
}

t.test('a migration the database applied but the service lacks stops the migration', async (t) => {
  const db = await connect({ ...DEFAULTS.database, url: await testDatabaseUrl(t) })
  t.teardown(() => db.destroy())
  await migrateToLatest(db)
  const last = names.at(-1)!
  const older = Object.fromEntries(Object.entries(MIGRATIONS).filter(([name]) => name !== last))
  const error = await refusal(db, older)
  t.equal(error?.message, `migrations refused: corrupted migrations: previously executed migration ${last} is missing`)
})

t.test('a new migration named before one already applied stops the migration, unapplied', async (t) => {
  const db = await connect({ ...DEFAULTS.database, url: await testDatabaseUrl(t) })
  t.teardown(() => db.destroy())
  await migrateToLatest(db)
  const late = `${names[0]}_late`
  const error = await refusal(db, { ...MIGRATIONS, [late]: { up: async (db) => { await db.schema.createTable('late').addColumn('id', 'integer').execute() } } })
  t.match(error?.message, `migrations refused: corrupted migrations: expected previously executed migration ${names[1]} to be at index 1 but ${late} was found in its place.`)
  t.notOk((await db.introspection.getTables()).some((table) => table.name === 'late'))
})

t.test('a migration left unapplied by the migrator is an error, not a silent skip', async (t) => {
  const db = await connect({ ...DEFAULTS.database, url: await testDatabaseUrl(t) })
  t.teardown(() => db.destroy())
  // The migrator applies what it was given when it started: one that appears meanwhile
  // stands for any way a migration could be left behind.
  const migrations: Record<string, Migration> = { ...MIGRATIONS }
  migrations[names.at(-1)!] = {
    up: async (db) => {
      await MIGRATIONS[names.at(-1)!]!.up(db)
      migrations['99990101000000_appeared'] = { up: async () => {} }
    }
  }
  const error = await refusal(db, migrations)
  t.equal(error?.message, 'migration 99990101000000_appeared not applied')
})

t.test('keys made before scopes existed get every scope and no expiry, so an upgrade locks no one out', async (t) => {
  const db = await connect({ ...DEFAULTS.database, url: await testDatabaseUrl(t) })
  t.teardown(() => db.destroy())
  const scopes = '20261124000100_key_scopes_and_expiry'
  await migrator(db).migrateTo(names[names.indexOf(scopes) - 1]!)
  await db.insertInto('api_keys').values({ name: 'ops', key_hash: 'h'.repeat(64), key_prefix: 'pst_abcdef', created_at: '2026-11-22T00:00:00.000Z' }).execute()
  await migrateToLatest(db)
  t.same(await db.selectFrom('api_keys').select(['name', 'scopes', 'expires_at', 'replaced_at']).execute(),
    [{ name: 'ops', scopes: 'orders:read orders:write pets:read pets:write', expires_at: null, replaced_at: null }])
})
