/**
 * A backup that fails part way (the database cannot be read, is damaged, or stays locked)
 * leaves an older backup as it was and no partial copy beside it.
 */
import { closeSync, openSync, readdirSync, readFileSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import t from 'tap'
import { runScript, tempDir } from '../helpers/process.ts'

interface Run { code: number, stdout: string, stderr: string }

function backup (env: Record<string, string>, ...args: string[]): Promise<Run> {
  return runScript('scripts/backup.ts', args, env).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    ({ code, stdout, stderr }: Run) => ({ code, stdout, stderr }))
}

/** A small database in rollback-journal mode, with one pet. */
function database (path: string): SQLite.Database {
  const db = new SQLite(path)
  db.exec("create table pets (id integer primary key, name text not null); insert into pets (name) values ('Rex')")
  return db
}

const files = (dir: string) => readdirSync(dir).sort()

t.test('a copy that fails leaves the older backup as it was, and nothing beside it', async (t) => {
  const dir = tempDir(t)
  const file = join(dir, 'backup.db')
  writeFileSync(file, 'an older backup')

  const junk = join(dir, 'junk.db')
  writeFileSync(junk, 'not a database '.repeat(100))
  const before = files(dir)
  t.same(await backup({ DATABASE_URL: junk }, file, '--force'), { code: 1, stdout: '', stderr: 'backup: file is not a database\n' })
  t.equal(readFileSync(file, 'utf8'), 'an older backup', 'the older backup is unchanged')
  t.same(files(dir), before, 'no partial copy left')

  // A table page overwritten on disk: SQLite copies it as it is, and the check of the copy finds it.
  const damaged = join(dir, 'damaged.db')
  const db = database(damaged)
  db.exec('create table names (name text)')
  const insert = db.prepare('insert into names values (?)')
  for (let i = 0; i < 500; i++) insert.run(`name-${i}`.padEnd(100, '.'))
  db.close()
  const fd = openSync(damaged, 'r+')
  writeSync(fd, Buffer.alloc(200, 0xff), 0, 200, 4096 * 5 + 8)
  closeSync(fd)
  const run = await backup({ DATABASE_URL: damaged }, file, '--force')
  t.equal(run.code, 1)
  t.match(run.stderr, new RegExp(`^backup: the copy fails SQLite's quick_check, so ${damaged} may itself be damaged: Tree \\d+ page \\d+ cell \\d+: [^\\n]+\\n$`))
  t.equal(readFileSync(file, 'utf8'), 'an older backup', 'the older backup is unchanged')
  t.same(files(dir), [...before, 'damaged.db'].sort(), 'no partial copy left')
})

t.test('a database another process keeps locked: refused after the lock timeout, nothing written', async (t) => {
  const dir = tempDir(t)
  const source = join(dir, 'live.db')
  // In rollback-journal mode an exclusive transaction keeps readers out (in WAL mode nothing does).
  const db = database(source)
  t.teardown(() => db.close())
  db.exec('begin exclusive')
  db.exec("insert into pets (name) values ('Tom')")
  const before = files(dir)
  t.same(await backup({ DATABASE_URL: source, SQLITE_LOCK_TIMEOUT_MS: '100' }, join(dir, 'backup.db')), {
    code: 1, stdout: '', stderr: `backup: ${source} is locked by another process (waited 100 ms)\n`
  })
  t.same(files(dir), before, 'nothing written')
  db.exec('commit')
})
