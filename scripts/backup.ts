/**
 * `npm run backup -- FILE [--force]`: copies the configured SQLite database to FILE while the
 * service keeps serving (./lib/sqlite-backup.ts). The copy is a database of its own, which
 * `DATABASE_URL=FILE npm start` serves. PostgreSQL has pg_dump for this.
 */
import { statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/config/config.ts'
import { describeDatabase, isPostgresUrl, sqlitePath } from '../src/database/url.ts'
import { backupSqlite } from './lib/sqlite-backup.ts'

const USAGE = 'usage: npm run backup -- FILE [--force]'

class UsageError extends Error {}

function parsedArgs (args: string[]): { file: string, force: boolean } {
  let parsed
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { force: { type: 'boolean' } } })
  } catch {
    throw new UsageError(USAGE)
  }
  const [file, ...extra] = parsed.positionals
  if (file === undefined || file.trim() === '' || extra.length > 0) throw new UsageError(USAGE)
  return { file, force: parsed.values.force === true }
}

/** A word the shell takes as it is, for a command line to copy. */
function shellWord (word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`
}

/** The SQLite file to copy, or why there is none. */
function sourceFile (url: string, file: string): string {
  if (isPostgresUrl(url)) {
    throw new Error(`DATABASE_URL is a PostgreSQL database (${describeDatabase(url)}), which this command cannot copy; use pg_dump, e.g. pg_dump --format=custom --file=${shellWord(file)} "$DATABASE_URL", and pg_restore to restore`)
  }
  const path = sqlitePath(url)
  if (path === ':memory:') throw new Error('DATABASE_URL is :memory:, a database inside the service process; there is no file to copy')
  const stats = statSync(path, { throwIfNoEntry: false })
  if (stats === undefined) throw new Error(`no database at ${path} (DATABASE_URL)`)
  if (!stats.isFile()) throw new Error(`${path} (DATABASE_URL) is not a file`)
  if (stats.size === 0) throw new Error(`${path} (DATABASE_URL) is empty, not a database`)
  return path
}

/** Whether two names are one file: the same path, or the same inode (a link). */
function sameFile (a: string, b: string): boolean {
  if (resolve(a) === resolve(b)) return true
  const [statsA, statsB] = [statSync(a, { throwIfNoEntry: false }), statSync(b, { throwIfNoEntry: false })]
  return statsA !== undefined && statsB !== undefined && statsA.dev === statsB.dev && statsA.ino === statsB.ino
}

function checkDestination (file: string, source: string, force: boolean): void {
  if (statSync(dirname(resolve(file)), { throwIfNoEntry: false })?.isDirectory() !== true) {
    throw new Error(`there is no folder ${dirname(file)} to write ${file} in`)
  }
  // Not even with --force: replacing the live database (or its WAL) would lose it.
  if ([source, `${source}-wal`, `${source}-shm`, `${source}-journal`].some((live) => sameFile(file, live))) {
    throw new Error(`${file} is the live database, or one of its files; back it up to another file`)
  }
  const stats = statSync(file, { throwIfNoEntry: false })
  if (stats === undefined) return
  if (!stats.isFile()) throw new Error(`${file} exists and is not a file`)
  // Checked here, at the start: a file made under that name while the copy runs is replaced.
  if (!force) throw new Error(`${file} exists; add --force to replace it`)
}

try {
  const { file, force } = parsedArgs(process.argv.slice(2))
  const { database } = loadConfig()
  const source = sourceFile(database.url, file)
  checkDestination(file, source, force)
  const { pages, bytes } = await backupSqlite(source, file, { lockTimeoutMs: database.lockTimeoutMs })
  console.log(`Backed up ${source} to ${file}: ${pages} pages, ${bytes} bytes`)
} catch (error) {
  console.error(error instanceof UsageError ? error.message : `backup: ${(error as Error).message}`)
  process.exitCode = error instanceof UsageError ? 2 : 1
}
