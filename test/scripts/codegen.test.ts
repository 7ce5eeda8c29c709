/**
 * `npm run codegen`: what it writes from the migrations is what is committed in generated/
 * (CI also regenerates everything and fails on a diff).
 */
import { readFileSync } from 'node:fs'
import t from 'tap'
import { migrationListSource } from '../../scripts/lib/migration-list.ts'
import { MIGRATIONS_FOLDER } from '../../src/database/migration-files.ts'

const committed = (file: string) => readFileSync(new URL(`../../generated/${file}`, import.meta.url), 'utf8')

t.test('generated/migrations.ts lists every file of migrations/, as codegen writes it', async (t) => {
  t.equal(committed('migrations.ts'), migrationListSource(MIGRATIONS_FOLDER), 'stale: run `npm run codegen`')
})
