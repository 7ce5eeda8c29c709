/**
 * Bulk seeding for the benchmark: pets straight into a server's SQLite file or PostgreSQL
 * database (every peer has the same pets columns), in one transaction, after the server
 * has made its tables. Pet `i` (from 0, so its id is i + 1) is named `Pet i`, has category
 * `i % 100` and cycles through the statuses: a quarter of the pets are `sold`, so a status
 * filter has pages to fill, and a quarter `available` (ids 1, 5, 9 ...).
 */
import SQLite from 'better-sqlite3'
import pg from 'pg'

const STATUSES = ['available', 'pending', 'sold', null] as const

/** Seeds `count` pets; with `available`, every one of them is `available` (to be ordered, each once). */
export function seedPets (file: string, count: number, { available = false } = {}): void {
  const sqlite = new SQLite(file)
  try {
    sqlite.pragma('busy_timeout = 5000')
    const insert = sqlite.prepare('insert into pets (name, category_id, status) values (?, ?, ?)')
    sqlite.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(`Pet ${i}`, i % 100, available ? 'available' : STATUSES[i % STATUSES.length])
    })()
  } finally {
    sqlite.close()
  }
}

/** The same pets in a PostgreSQL database, in one statement; then the planner's statistics, as autovacuum would gather them. */
export async function seedPostgresPets (url: string, count: number, { available = false } = {}): Promise<void> {
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`insert into pets (name, category_id, status)
      select 'Pet ' || i, i % 100, case when $2::boolean then 'available' else (array['available', 'pending', 'sold', null])[i % 4 + 1] end
      from generate_series(0, $1::integer - 1) as i order by i`, [count, available])
    await client.query('analyze pets')
  } finally {
    await client.end()
  }
}
