/**
 * `npm run migrate`: brings the configured database to the newest schema. The server also
 * does this at start; this is for deployments that migrate as a separate step.
 */
import type { Kysely } from 'kysely'
import { loadConfig } from '../src/config/config.ts'
import { connect, SCRIPT_BLOCKING_WAIT_MS } from '../src/database/connect.ts'
import { migrateToLatest } from '../src/database/migrate.ts'
import type { Database } from '../src/database/schema.ts'

let db: Kysely<Database> | undefined
try {
  db = await connect({ ...loadConfig().database, blockingWaitMs: SCRIPT_BLOCKING_WAIT_MS })
  const results = await migrateToLatest(db)
  for (const result of results) console.log(`${result.status}: ${result.migrationName}`)
  console.log(results.length === 0 ? 'Database already up to date' : `Applied ${results.length} migration(s)`)
} catch (error) {
  const cause = (error as Error).cause
  console.error(`Migration failed: ${(error as Error).message}${cause instanceof Error ? `: ${cause.message}` : ''}`)
  process.exitCode = 1
} finally {
  await db?.destroy()
}
