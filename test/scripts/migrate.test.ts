import { readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import t from 'tap'
import { runScript, scriptResult, tempDir } from '../helpers/process.ts'

function migrate (env: Record<string, string>) {
  return runScript('scripts/migrate.ts', [], env)
}

t.test('npm run migrate applies each migration once and says so', async (t) => {
  const dir = tempDir(t)
  const env = { DATABASE_URL: join(dir, 'petstore.db') }
  const first = await migrate(env)
  // Every file of migrations/, in name order: the list a new migration joins by itself.
  const names = readdirSync(new URL('../../migrations/', import.meta.url)).map((file) => file.replace(/\.ts$/, '')).sort()
  t.ok(names.length > 0)
  t.equal(first.stdout, [...names.map((name) => `Success: ${name}`), `Applied ${names.length} migration(s)`, ''].join('\n'))
  const second = await migrate(env)
  t.equal(second.stdout, 'Database already up to date\n')
})

/** `npm run migrate` expected to fail: its exit code and output. */
function failure (env: Record<string, string>) {
  return scriptResult('scripts/migrate.ts', [], env)
}

t.test('a failing migration exits non-zero and names it', async (t) => {
  const dir = tempDir(t)
  const path = join(dir, 'petstore.db')
  // A table made by hand, in the way of the first migration.
  const sqlite = new SQLite(path)
  sqlite.exec('create table pets (id integer primary key)')
  sqlite.close()
  const error = await failure({ DATABASE_URL: path })
  t.equal(error.code, 1)
  t.equal(error.stderr, 'Migration failed: migration 20261122000000_create_pets failed: table "pets" already exists\n')
})

t.test('a file that is not a database exits non-zero with the reason', async (t) => {
  const dir = tempDir(t)
  const path = join(dir, 'petstore.db')
  writeFileSync(path, 'not a database '.repeat(100))
  const error = await failure({ DATABASE_URL: path })
  t.equal(error.code, 1)
  t.equal(error.stderr, 'Migration failed: file is not a database\n')
})
