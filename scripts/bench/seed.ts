/**
 * Bulk seeding for the benchmark: pets straight into a server's SQLite file (every peer
 * has the same pets columns), in one transaction, after the server has made its tables.
 * A quarter of the pets are `sold`, so a status filter has pages to fill.
 */
import SQLite from 'better-sqlite3'

const STATUSES = ['available', 'pending', 'sold', null] as const

export function seedPets (file: string, count: number): void {
  const sqlite = new SQLite(file)
  try {
    sqlite.pragma('busy_timeout = 5000')
    const insert = sqlite.prepare('insert into pets (name, category_id, status) values (?, ?, ?)')
    sqlite.transaction(() => {
      for (let i = 0; i < count; i++) insert.run(`Pet ${i}`, i % 100, STATUSES[i % STATUSES.length])
    })()
  } finally {
    sqlite.close()
  }
}
