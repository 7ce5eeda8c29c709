/**
 * `npm run keys -- <command>`: API keys in the configured database.
 *
 *   create --name NAME   make a key and print it (the only time it is shown)
 *   list                 every key: id, name, prefix, created, last used, revoked
 *   revoke NAME|ID       revoke a key; a running service stops accepting it within a second
 */
import { parseArgs } from 'node:util'
import type { Kysely } from 'kysely'
import { loadConfig } from '../src/config.ts'
import { connect } from '../src/database/connect.ts'
import { migrateToLatest } from '../src/database/migrate.ts'
import type { Database } from '../src/database/schema.ts'
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeyInfo } from '../src/repositories/api-keys.ts'

const USAGE = 'usage: npm run keys -- create --name NAME | list | revoke NAME|ID'

class UsageError extends Error {}

function table (keys: ApiKeyInfo[]): string {
  const rows = [['ID', 'NAME', 'PREFIX', 'CREATED', 'LAST USED', 'REVOKED'],
    ...keys.map((key) => [String(key.id), key.name, `${key.prefix}…`, key.createdAt, key.lastUsedAt ?? '-', key.revokedAt ?? '-'])]
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n')
}

async function run (db: Kysely<Database>, args: string[]): Promise<string> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { name: { type: 'string' } } })
  const [command, target, ...extra] = positionals
  if (extra.length > 0) throw new UsageError(USAGE)
  switch (command) {
    case 'create': {
      const name = values.name?.trim()
      if (name === undefined || name === '' || target !== undefined) throw new UsageError(USAGE)
      const { key, info } = await createApiKey(db, name)
      return `Created key "${info.name}" (id ${info.id}). It is shown this once; store it now:\n\n  ${key}\n`
    }
    case 'list': {
      if (target !== undefined) throw new UsageError(USAGE)
      const keys = await listApiKeys(db)
      return keys.length === 0 ? 'No keys.' : table(keys)
    }
    case 'revoke': {
      if (target === undefined) throw new UsageError(USAGE)
      const revoked = await revokeApiKey(db, target)
      if (revoked === undefined) throw new Error(`No active key with the id or name "${target}"`)
      return `Revoked key "${revoked.name}" (id ${revoked.id}).`
    }
    default:
      throw new UsageError(USAGE)
  }
}

let db: Kysely<Database> | undefined
try {
  db = connect(loadConfig().database)
  await migrateToLatest(db)
  console.log(await run(db, process.argv.slice(2)))
} catch (error) {
  console.error(error instanceof UsageError ? error.message : `keys: ${(error as Error).message}`)
  process.exitCode = error instanceof UsageError ? 2 : 1
} finally {
  await db?.destroy()
}
