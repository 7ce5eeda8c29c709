/**
 * What `npm run backup` refuses: one line on stderr, a non-zero exit, and no file written or
 * changed.
 */
import { linkSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import t from 'tap'
import { backup, databaseWithOnePet, files } from '../helpers/backup.ts'
import { tempDir } from '../helpers/process.ts'

const USAGE = 'usage: npm run backup -- FILE [--force]\n'

t.test('no FILE, or more than one, or an unknown option: the usage, exit 2', async (t) => {
  const dir = tempDir(t)
  const source = join(dir, 'live.db')
  databaseWithOnePet(source).close()
  const before = files(dir)
  const cases = [[], [''], ['a.db', 'b.db'], ['--forse', join(dir, 'a.db')]]
  const runs = await Promise.all(cases.map((args) => backup(source, args)))
  for (const [i, run] of runs.entries()) t.same(run, { code: 2, stdout: '', stderr: USAGE }, JSON.stringify(cases[i]))
  t.same(files(dir), before, 'nothing written')
})

t.test('a FILE that exists is refused without --force, and replaced with it', async (t) => {
  const dir = tempDir(t)
  const source = join(dir, 'live.db')
  databaseWithOnePet(source).close()
  const file = join(dir, 'backup.db')
  writeFileSync(file, 'an older backup')
  const before = files(dir)

  t.same(await backup(source, [file]), { code: 1, stdout: '', stderr: `backup: ${file} exists; add --force to replace it\n` })
  t.equal(readFileSync(file, 'utf8'), 'an older backup', 'the file is unchanged')
  t.same(files(dir), before, 'nothing else written')

  const forced = await backup(source, [file, '--force'])
  t.equal(forced.code, 0)
  t.match(forced.stdout, new RegExp(`^Backed up ${source} to ${file}: 2 pages, 8192 bytes\\n$`))
  const copy = new SQLite(file, { readonly: true })
  t.same(copy.prepare('select name from pets').pluck().all(), ['Rex'], 'the file is the new copy')
  copy.close()
  t.same(files(dir), before, 'and nothing else is left beside it')
})

t.test('PostgreSQL: pointed to pg_dump, without printing the credentials', async (t) => {
  const dir = tempDir(t)
  const file = join(dir, 'my backup.dump')
  const url = 'postgres://petstore:fake-password-4321@db.example:5432/petstore?sslmode=require&password=other-fake-secret'
  const run = await backup(url, [file])
  t.same(run, {
    code: 1,
    stdout: '',
    stderr: `backup: DATABASE_URL is a PostgreSQL database (postgres://db.example:5432/petstore), which this command cannot copy; use pg_dump, e.g. pg_dump --format=custom --file='${file}' "$DATABASE_URL", and pg_restore to restore\n`
  })
  t.notMatch(run.stderr, /fake-password|other-fake-secret|petstore:/, 'no credentials printed')
  t.same(files(dir), [], 'nothing written')
})

t.test('no database to copy: in memory, missing, a folder, an empty file', async (t) => {
  const dir = tempDir(t)
  const file = join(dir, 'backup.db')
  const missing = join(dir, 'missing.db')
  const folder = join(dir, 'folder.db')
  mkdirSync(folder)
  const empty = join(dir, 'empty.db')
  writeFileSync(empty, '')
  const before = files(dir)
  const refusals: Array<[string, string]> = [
    [':memory:', 'DATABASE_URL is :memory:, a database inside the service process; there is no file to copy'],
    [`sqlite:${missing}`, `no database at ${missing} (DATABASE_URL)`],
    [folder, `${folder} (DATABASE_URL) is not a file`],
    [empty, `${empty} (DATABASE_URL) is empty, not a database`]
  ]
  const runs = await Promise.all(refusals.map(([url]) => backup(url, [file])))
  for (const [i, run] of runs.entries()) t.same(run, { code: 1, stdout: '', stderr: `backup: ${refusals[i]![1]}\n` }, refusals[i]![0])
  t.same(files(dir), before, 'nothing written, and no database made where there was none')
})

t.test('FILE must not be the live database or one of its files, not even with --force', async (t) => {
  const dir = tempDir(t)
  const source = join(dir, 'live.db')
  const db = databaseWithOnePet(source)
  t.teardown(() => db.close())
  const link = join(dir, 'link.db')
  linkSync(source, link)
  const content = readFileSync(source)
  const before = files(dir)
  const live = [source, `${source}-wal`, link]
  const runs = await Promise.all(live.map((file) => backup(source, [file, '--force'])))
  for (const [i, run] of runs.entries()) {
    t.same(run, { code: 1, stdout: '', stderr: `backup: ${live[i]} is the live database, or one of its files; back it up to another file\n` }, live[i])
  }
  t.same(readFileSync(source), content, 'the database is unchanged')
  t.same(db.prepare('select name from pets').pluck().all(), ['Rex'])
  t.same(files(dir), before, 'nothing written')
})

t.test('FILE in a folder that does not exist, or a folder itself', async (t) => {
  const dir = tempDir(t)
  const source = join(dir, 'live.db')
  databaseWithOnePet(source).close()
  const before = files(dir)
  const nowhere = join(dir, 'no-such-folder', 'backup.db')
  t.same(await backup(source, [nowhere]), { code: 1, stdout: '', stderr: `backup: there is no folder ${join(dir, 'no-such-folder')} to write ${nowhere} in\n` })
  t.same(files(dir), before, 'no folder made')
  const folder = join(dir, 'backups')
  mkdirSync(folder)
  t.same(await backup(source, [folder, '--force']), { code: 1, stdout: '', stderr: `backup: ${folder} exists and is not a file\n` })
  t.same(files(folder), [], 'nothing written into it')
})
