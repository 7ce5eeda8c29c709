import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import t from 'tap'
import { backupSqlite, stepPlanner } from '../../scripts/lib/sqlite-backup.ts'
import { tempDir } from '../helpers/process.ts'

t.test('each step that started over doubles the next, and only then', async (t) => {
  const plan = stepPlanner(10)
  t.equal(plan({ totalPages: 100, remainingPages: 100 }), 10, 'the first step')
  t.equal(plan({ totalPages: 100, remainingPages: 90 }), 10, 'it copied its pages: the same again')
  t.equal(plan({ totalPages: 100, remainingPages: 90 }), 20, 'it started over: twice as many')
  t.equal(plan({ totalPages: 100, remainingPages: 80 }), 40, 'it started over again')
  t.equal(plan({ totalPages: 100, remainingPages: 40 }), 40, 'it copied its pages')
  t.equal(stepPlanner(2 ** 30)({ totalPages: 1, remainingPages: 1 }), 2 ** 30, 'a first step larger than the database')
  const huge = stepPlanner(2 ** 30)
  huge({ totalPages: 2 ** 31, remainingPages: 2 ** 31 })
  t.equal(huge({ totalPages: 2 ** 31, remainingPages: 2 ** 31 }), 0x7fffffff, 'never more than a step can take')
})

t.test('a backup written to between every two steps still finishes, with what was there when it began', async (t) => {
  const dir = tempDir(t)
  const source = join(dir, 'live.db')
  const writer = new SQLite(source)
  t.teardown(() => writer.close())
  writer.pragma('journal_mode = WAL')
  writer.exec('create table pets (id integer primary key, name text not null)')
  const insert = writer.prepare('insert into pets (name) values (?)')
  for (let i = 0; i < 2000; i++) insert.run(`before-${i}`.padEnd(200, '.'))

  const progress: number[] = []
  const result = await backupSqlite(source, join(dir, 'copy.db'), {
    lockTimeoutMs: 1000,
    firstStepPages: 4,
    // Another connection commits between every two steps, which makes SQLite start over.
    onStep ({ remainingPages }) {
      progress.push(remainingPages)
      if (progress.length > 50) throw new Error('the backup keeps starting over')
      insert.run(`during-${progress.length}`)
    }
  })

  t.ok(progress.some((remaining, step) => step > 0 && remaining >= progress[step - 1]!), 'the backup started over')
  t.ok(progress.length < 20, `it finished all the same, in ${progress.length} steps`)
  const copy = new SQLite(join(dir, 'copy.db'), { readonly: true })
  t.teardown(() => copy.close())
  t.equal(copy.pragma('integrity_check', { simple: true }), 'ok', 'the copy passes integrity_check')
  t.equal(result.pages, copy.pragma('page_count', { simple: true }), 'the pages it says it copied')
  const names = copy.prepare('select name from pets order by id').pluck().all() as string[]
  t.same(names.slice(0, 2000), Array.from({ length: 2000 }, (_, i) => `before-${i}`.padEnd(200, '.')), 'every row written before it began')
  t.ok(names.slice(2000).every((name) => name.startsWith('during-')), 'and only rows written since')
  t.same(readdirSync(dir).filter((name) => name.startsWith('copy.db')), ['copy.db'], 'nothing else beside the copy')
})
