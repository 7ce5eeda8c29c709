/**
 * `npm run codegen`: what it writes from the migrations is what is committed in generated/
 * (CI also regenerates everything and fails on a diff).
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import t from 'tap'
import { databaseTypesSource } from '../../scripts/lib/database-types.ts'
import { migrationListSource } from '../../scripts/lib/migration-list.ts'
import { MIGRATIONS_FOLDER } from '../../src/database/migration-files.ts'

const committed = (file: string) => readFileSync(new URL(`../../generated/${file}`, import.meta.url), 'utf8')

/** The column lines of one table's interface in generated database types, as written. */
function columnsOf (types: string, table: string): string[] {
  const body = new RegExp(`^export interface ${table} \\{\\n([^}]*)\\}`, 'm').exec(types)?.[1]
  if (body === undefined) throw new Error(`no interface ${table}`)
  return body.split('\n').filter((line) => line !== '')
}

t.test('generated/migrations.ts lists every file of migrations/, as codegen writes it', async (t) => {
  t.equal(committed('migrations.ts'), migrationListSource(MIGRATIONS_FOLDER), 'stale: run `npm run codegen`')
})

t.test('generated/database.ts has every table and column the migrations make, as codegen writes it', async (t) => {
  t.equal(committed('database.ts'), await databaseTypesSource(MIGRATIONS_FOLDER), 'stale: run `npm run codegen`')
})

t.test('a column a migration adds is in the generated types, so committed types without it are stale', async (t) => {
  const root = t.testdir()
  cpSync(MIGRATIONS_FOLDER, join(root, 'migrations'), { recursive: true })
  // Columns no real migration would add, so one that adds a column to pets leaves this test as it is.
  writeFileSync(join(root, 'migrations', '20991231000000_add_fixture_columns.ts'), [
    "import type { Kysely } from 'kysely'",
    '',
    'export async function up (db: Kysely<any>): Promise<void> {',
    "  await db.schema.alterTable('pets').addColumn('zz_fixture_text', 'text').execute()",
    "  await db.schema.alterTable('pets').addColumn('zz_fixture_bigint', 'bigint').execute()",
    '}',
    ''
  ].join('\n'))
  const types = await databaseTypesSource(pathToFileURL(join(root, 'migrations/')))
  t.not(types, committed('database.ts'))
  // The committed columns of pets, whatever they are, and the two new ones typed from their SQL type, in name order.
  const before = columnsOf(committed('database.ts'), 'Pets')
  t.ok(before.includes('  name: string;'), 'the committed pets table has its columns')
  t.same(columnsOf(types, 'Pets'), [...before, '  zz_fixture_bigint: Int64 | null;', '  zz_fixture_text: string | null;'].sort())
})
