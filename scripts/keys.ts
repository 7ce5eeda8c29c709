/**
 * `npm run keys -- <command>`: API keys in the configured database. The commands are in
 * src/features/api-keys/command.ts; `npm run keys` alone prints them.
 */
import type { Kysely } from 'kysely'
import { loadConfig } from '../src/config/config.ts'
import { apiDocument } from '../src/contract/document.ts'
import { declaredScopes } from '../src/contract/operation-security.ts'
import { connect, SCRIPT_BLOCKING_WAIT_MS } from '../src/database/connect.ts'
import { migrateToLatest } from '../src/database/migrate.ts'
import type { Database } from '../src/database/schema.ts'
import { keysCommand, UsageError } from '../src/features/api-keys/command.ts'

let db: Kysely<Database> | undefined
try {
  // Checked before the database is opened: a command line with a mistake changes nothing.
  const command = keysCommand(process.argv.slice(2), [...declaredScopes(apiDocument).keys()])
  db = await connect({ ...loadConfig().database, blockingWaitMs: SCRIPT_BLOCKING_WAIT_MS })
  await migrateToLatest(db)
  console.log(await command(db))
} catch (error) {
  console.error(error instanceof UsageError ? error.message : `keys: ${(error as Error).message}`)
  process.exitCode = error instanceof UsageError ? 2 : 1
} finally {
  await db?.destroy()
}
