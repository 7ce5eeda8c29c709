/**
 * `npm run webhooks -- <command>`: webhook endpoints in the configured database, with the
 * key for their secrets configured as for the service. The commands are in
 * src/features/webhooks/command.ts; `npm run webhooks` alone prints them.
 */
import type { Kysely } from 'kysely'
import { loadConfig } from '../src/config/config.ts'
import { connect, SCRIPT_BLOCKING_WAIT_MS } from '../src/database/connect.ts'
import { migrateToLatest } from '../src/database/migrate.ts'
import type { Database } from '../src/database/schema.ts'
import { UsageError, webhooksCommand } from '../src/features/webhooks/command.ts'
import { defaultKeyFile } from '../src/features/webhooks/secrets-key.ts'

let db: Kysely<Database> | undefined
try {
  // Checked before the database is opened: a command line with a mistake changes nothing.
  const command = webhooksCommand(process.argv.slice(2))
  const { database, webhooks } = loadConfig()
  db = await connect({ ...database, blockingWaitMs: SCRIPT_BLOCKING_WAIT_MS })
  await migrateToLatest(db)
  console.log(await command(db, { key: webhooks.secretsKey, file: webhooks.secretsKeyFile ?? defaultKeyFile(database.url) }))
} catch (error) {
  console.error(error instanceof UsageError ? error.message : `webhooks: ${(error as Error).message}`)
  process.exitCode = error instanceof UsageError ? 2 : 1
} finally {
  await db?.destroy()
}
