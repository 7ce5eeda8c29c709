/**
 * SQL run on a test's database as another program would run it (the sqlite3 shell on the
 * file, psql on the database), over a connection of its own, closed when the test ends.
 */
import SQLite from 'better-sqlite3'
import pg from 'pg'
import type { Test } from 'tap'
import { TEST_DATABASE } from './app.ts'

export async function anotherProgram (t: Test, url: string): Promise<(statement: string) => Promise<void>> {
  if (TEST_DATABASE === 'sqlite') {
    const sqlite = new SQLite(url)
    t.teardown(() => sqlite.close())
    return async (statement) => { sqlite.prepare(statement).run() }
  }
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  t.teardown(() => client.end())
  return async (statement) => { await client.query(statement) }
}
