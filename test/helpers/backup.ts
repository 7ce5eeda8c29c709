/**
 * What the tests of `npm run backup` set up and look at: the command's outcome, a small
 * database to copy, and the files of a folder (nothing may be written, changed or left).
 */
import { readdirSync } from 'node:fs'
import SQLite from 'better-sqlite3'
import { scriptResult, type ScriptResult } from './process.ts'

/** `npm run backup -- ARGS` of the database at `databaseUrl`: its exit code and output, whatever the code. */
export function backup (databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<ScriptResult> {
  return scriptResult('scripts/backup.ts', args, { DATABASE_URL: databaseUrl, ...env })
}

/**
 * A small database with one pet, Rex: in WAL mode, as the service leaves it, or with
 * `wal: false` in rollback-journal mode (where an exclusive transaction keeps readers out).
 */
export function databaseWithOnePet (path: string, { wal = true } = {}): SQLite.Database {
  const db = new SQLite(path)
  if (wal) db.pragma('journal_mode = WAL')
  db.exec("create table pets (id integer primary key, name text not null); insert into pets (name) values ('Rex')")
  return db
}

/** The folder's files, sorted, to show that nothing was added (no copy, no partial file). */
export const files = (dir: string): string[] => readdirSync(dir).sort()
