/**
 * `npm run migrate`: brings the configured database to the newest schema. The server also
 * does this at start; this is for deployments that migrate as a separate step.
 */
import { loadConfig } from '../src/config.ts'
import { connect } from '../src/database/connect.ts'
import { migrateToLatest } from '../src/database/migrate.ts'

const config = loadConfig()
const db = connect(config.database)
try {
  const results = await migrateToLatest(db)
  for (const result of results) console.log(`${result.status}: ${result.migrationName}`)
  console.log(results.length === 0 ? 'Database already up to date' : `Applied ${results.length} migration(s)`)
} catch (error) {
  console.error(`Migration failed: ${(error as Error).message}`, (error as Error).cause ?? '')
  process.exitCode = 1
} finally {
  await db.destroy()
}
