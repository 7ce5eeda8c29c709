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

t.test('generated/migrations.ts lists every file of migrations/, as codegen writes it', async (t) => {
  t.equal(committed('migrations.ts'), migrationListSource(MIGRATIONS_FOLDER), 'stale: run `npm run codegen`')
})

t.test('generated/database.ts has every table and column the migrations make, as codegen writes it', async (t) => {
  t.equal(committed('database.ts'), await databaseTypesSource(MIGRATIONS_FOLDER), 'stale: run `npm run codegen`')
})

t.test('a column a migration adds is in the generated types, so committed types without it are stale', async (t) => {
  const root = t.testdir()
  cpSync(MIGRATIONS_FOLDER, join(root, 'migrations'), { recursive: true })
  writeFileSync(join(root, 'migrations', '20991231000000_add_pet_notes.ts'), [
    "import type { Kysely } from 'kysely'",
    '',
    'export async function up (db: Kysely<any>): Promise<void> {',
    "  await db.schema.alterTable('pets').addColumn('notes', 'text').execute()",
    "  await db.schema.alterTable('pets').addColumn('weight_grams', 'bigint').execute()",
    '}',
    ''
  ].join('\n'))
  const types = await databaseTypesSource(pathToFileURL(join(root, 'migrations/')))
  t.not(types, committed('database.ts'))
  t.match(types, /export interface Pets \{\n {2}category_id: Int64;\n {2}id: Generated<Int64>;\n {2}name: string;\n {2}notes: string \| null;\n {2}status: string \| null;\n {2}weight_grams: Int64 \| null;\n\}/)
})
