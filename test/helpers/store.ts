/**
 * What tests read back from the store: rows counted in the database itself.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../src/database/schema.ts'

/**
 * Rows in a table, counted in the database itself: what a request stored, or that a refused
 * one stored nothing. Takes an app, or `{ db }` for a database without one.
 */
export async function rowCount ({ db }: { db: Kysely<Database> }, table: keyof Database): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
  return Number(row.n)
}
