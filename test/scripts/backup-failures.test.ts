/**
 * A backup that fails part way (the database cannot be read, is damaged, or stays locked)
 * leaves an older backup as it was and no partial copy beside it.
 */
import { closeSync, openSync, readFileSync, writeFileSync, writeSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { backup, databaseWithOnePet, files } from '../helpers/backup.ts'
import { tempDir } from '../helpers/process.ts'

t.test('a copy that fails leaves the older backup as it was, and nothing beside it', async (t) => {
  const dir = tempDir(t)
  const file = join(dir, 'backup.db')
  writeFileSync(file, 'an older backup')

  const junk = join(dir, 'junk.db')
  writeFileSync(junk, 'not a database '.repeat(100))
  const before = files(dir)
  t.same(await backup(junk, [file, '--force']), { code: 1, stdout: '', stderr: 'backup: file is not a database\n' })
  t.equal(readFileSync(file, 'utf8'), 'an older backup', 'the older backup is unchanged')
  t.same(files(dir), before, 'no partial copy left')

  // A table page overwritten on disk: SQLite copies it as it is, and the check of the copy finds it.
  const damaged = join(dir, 'damaged.db')
  const db = databaseWithOnePet(damaged, { wal: false })
  db.exec('create table names (name text)')
  const insert = db.prepare('insert into names values (?)')
  for (let i = 0; i < 500; i++) insert.run(`name-${i}`.padEnd(100, '.'))
  db.close()
  const fd = openSync(damaged, 'r+')
  writeSync(fd, Buffer.alloc(200, 0xff), 0, 200, 4096 * 5 + 8)
  closeSync(fd)
  const run = await backup(damaged, [file, '--force'])
  t.equal(run.code, 1)
  t.match(run.stderr, new RegExp(`^backup: the copy fails SQLite's quick_check, so ${damaged} may itself be damaged: Tree \\d+ page \\d+ cell \\d+: [^\\n]+\\n$`))
  t.equal(readFileSync(file, 'utf8'), 'an older backup', 'the older backup is unchanged')
  t.same(files(dir), [...before, 'damaged.db'].sort(), 'no partial copy left')
})

t.test('a database another process keeps locked: refused after the lock timeout, nothing written', async (t) => {
  const dir = tempDir(t)
  const source = join(dir, 'live.db')
  // In rollback-journal mode an exclusive transaction keeps readers out (in WAL mode nothing does).
  const db = databaseWithOnePet(source, { wal: false })
  t.teardown(() => db.close())
  db.exec('begin exclusive')
  db.exec("insert into pets (name) values ('Tom')")
  const before = files(dir)
  t.same(await backup(source, [join(dir, 'backup.db')], { SQLITE_LOCK_TIMEOUT_MS: '100' }), {
    code: 1, stdout: '', stderr: `backup: ${source} is locked by another process (waited 100 ms)\n`
  })
  t.same(files(dir), before, 'nothing written')
  db.exec('commit')
})
