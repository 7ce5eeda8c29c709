/**
 * Migrations are found, not registered: each file of migrations/ is applied at the next
 * start, in name order, and a file the service's list lacks stops the start. Each test
 * works in a copy of migrations/ made inside the project (so its files find kysely).
 */
import { execFile } from 'node:child_process'
import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import type { Migration } from 'kysely'
import t, { type Test } from 'tap'
import { DEFAULTS } from '../../src/config/defaults.ts'
import { MIGRATIONS } from '../../generated/migrations.ts'
import { migrationListSource } from '../../scripts/lib/migration-list.ts'
import { connect } from '../../src/database/connect.ts'
import { checkMigrationList, migrationFiles } from '../../src/database/migration-files.ts'
import { migrateToLatest, SERVICE_MIGRATIONS } from '../../src/database/migrate.ts'
import { testDatabaseUrl } from '../helpers/app.ts'
import { builtServer, CHILD_ENV } from '../helpers/process.ts'

// A column no real migration adds (docs/contract.md's own example adds `notes`), so one that
// does leaves this test as it is.
const ADDED = '20991231000000_add_fixture_column'
const ADD_FIXTURE_COLUMN = `import type { Kysely } from 'kysely'

export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('pets').addColumn('zz_fixture_only', 'text').execute()
}
`

/** A copy of migrations/ with one migration added, as a person adding a file makes it: the folder's URL. */
function migrationsWithOneAdded (t: Test): URL {
  const root = t.testdir()
  cpSync(SERVICE_MIGRATIONS.folder, join(root, 'migrations'), { recursive: true })
  writeFileSync(join(root, 'migrations', `${ADDED}.ts`), ADD_FIXTURE_COLUMN)
  return pathToFileURL(join(root, 'migrations/'))
}

t.test('a file of migrations/ that the list lacks stops the start, naming it and the fix', async (t) => {
  const folder = migrationsWithOneAdded(t)
  const db = await connect({ ...DEFAULTS.database, url: await testDatabaseUrl(t) })
  t.teardown(() => db.destroy())
  const error = await migrateToLatest(db, { migrations: MIGRATIONS, folder }).then(() => undefined, (thrown: Error) => thrown)
  t.equal(error?.message, `${new URL(`${ADDED}.ts`, folder).pathname} is not in the service's list of migrations ` +
    '(generated/migrations.ts), so would never be applied: run `npm run codegen` (and `npm run build` before `npm start`)')
  t.same((await db.introspection.getTables()).map((table) => table.name), [], 'and nothing was applied')
})

t.test('the built server finds dist/migrations/ beside it, and refuses a file its list lacks', async (t) => {
  // The bundle itself, copied without the sources, as a tarball install carries it.
  const { nodeArgs } = await builtServer()
  const root = t.testdir()
  cpSync(new URL('../../dist/', import.meta.url), join(root, 'dist'), { recursive: true })
  const added = join(root, 'dist/migrations', `${ADDED}.js`)
  writeFileSync(added, 'export async function up () {}\n')
  const env = { ...CHILD_ENV, DATABASE_URL: ':memory:', PORT: '0' }
  const error = await promisify(execFile)(process.execPath, [...nodeArgs, join(root, 'dist/server.js')], { env })
    .then(() => undefined, (thrown: { code: number, stderr: string }) => thrown)
  t.equal(error?.code, 1)
  t.equal(error?.stderr, `Cannot start: ${added} is not in the service's list of migrations (generated/migrations.ts), ` +
    'so would never be applied: run `npm run codegen` (and `npm run build` before `npm start`)\n')
})

t.test('a migration added is applied at the next start, after `npm run codegen`', async (t) => {
  const db = await connect({ ...DEFAULTS.database, url: await testDatabaseUrl(t) })
  t.teardown(() => db.destroy())
  t.equal((await migrateToLatest(db)).length, Object.keys(MIGRATIONS).length, 'the first start applies them all')

  const folder = migrationsWithOneAdded(t)
  // What `npm run codegen` writes for that folder, beside it, as generated/ is beside migrations/.
  const list = new URL('../generated/migrations.ts', folder)
  mkdirSync(new URL('.', list))
  writeFileSync(list, migrationListSource(folder))
  const { MIGRATIONS: regenerated } = await import(list.href) as { MIGRATIONS: Record<string, Migration> }
  t.same(Object.keys(regenerated), [...Object.keys(MIGRATIONS), ADDED])

  const applied = await migrateToLatest(db, { migrations: regenerated, folder })
  t.same(applied.map((result) => [result.migrationName, result.status]), [[ADDED, 'Success']])
  const pets = (await db.introspection.getTables()).find((table) => table.name === 'pets')
  t.ok(pets?.columns.some((column) => column.name === 'zz_fixture_only'), 'the new column is there')
  t.same(await migrateToLatest(db, { migrations: regenerated, folder }), [], 'and the start after applies nothing')
})

t.test('what counts as a migration file: scripts, in name order, not declarations or maps', async (t) => {
  const root = t.testdir({ 'b.ts': '', 'a.js': '', 'a.d.ts': '', 'a.js.map': '', 'c.mts': '', 'c.d.mts': '', 'README.md': '' })
  t.same(migrationFiles(pathToFileURL(`${root}/`)), [{ name: 'a', file: 'a.js' }, { name: 'b', file: 'b.ts' }, { name: 'c', file: 'c.mts' }])
  t.equal(migrationFiles(pathToFileURL(`${root}/none/`)), undefined, 'no folder, no files')
  t.doesNotThrow(() => checkMigrationList([], pathToFileURL(`${root}/none/`)), 'and nothing to check a list against')
  t.throws(() => checkMigrationList(['a'], pathToFileURL(`${root}/`)), /\/b\.ts, .*\/c\.mts are not in the service's list/)
})
