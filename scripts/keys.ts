/**
 * `npm run keys -- <command>`: API keys in the configured database.
 *
 *   create --name NAME        make a key and print it (the only time it is shown)
 *   list                      every key: id, name, prefix, created, last used, revoked
 *   revoke NAME|ID            revoke a key; a running service stops accepting it within a second
 *   revoke --id ID | --name NAME
 *                             the same, saying which: a key may well be *named* 4242
 */
import { parseArgs } from 'node:util'
import type { Kysely } from 'kysely'
import { loadConfig } from '../src/config/config.ts'
import { connect, SCRIPT_BLOCKING_WAIT_MS } from '../src/database/connect.ts'
import { migrateToLatest } from '../src/database/migrate.ts'
import type { Database } from '../src/database/schema.ts'
import { createApiKey, findActiveApiKeys, listApiKeys, revokeApiKey, type ApiKeyInfo, type KeySelector } from '../src/features/api-keys/repository.ts'

const USAGE = 'usage: npm run keys -- create --name NAME | list | revoke NAME|ID | revoke --id ID | revoke --name NAME'

class UsageError extends Error {}

// Control, format (bidi and other invisible) and separator characters, unpaired surrogates.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu
// The same, to test with: a global pattern's test() would carry lastIndex between calls.
const HAS_UNPRINTABLE = new RegExp(UNPRINTABLE.source, 'u')

/** A name as a terminal can show it safely: anything unprintable as a \u{...} escape. */
function printable (name: string): string {
  return name.replace(UNPRINTABLE, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`)
}

const NAME_RULE = 'a key name is 1 to 100 characters, with no control or invisible formatting characters'

function checkedName (name: string | undefined): string {
  const trimmed = name?.trim()
  if (trimmed === undefined || trimmed === '') throw new UsageError(USAGE)
  if ([...trimmed].length > 100 || HAS_UNPRINTABLE.test(trimmed)) throw new Error(NAME_RULE)
  return trimmed
}

function table (keys: ApiKeyInfo[]): string {
  const rows = [['ID', 'NAME', 'PREFIX', 'CREATED', 'LAST USED', 'REVOKED'],
    ...keys.map((key) => [String(key.id), printable(key.name), `${key.prefix}…`, key.createdAt, key.lastUsedAt ?? '-', key.revokedAt ?? '-'])]
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n')
}

/** Which key `revoke` means: --id, --name, or a bare target that must not be both. */
async function revokeTarget (db: Kysely<Database>, target: string | undefined, id: string | undefined, name: string | undefined): Promise<KeySelector> {
  const given = [target, id, name].filter((value) => value !== undefined)
  if (given.length !== 1) throw new UsageError(USAGE)
  if (id !== undefined) {
    if (!/^\d{1,19}$/.test(id)) throw new UsageError(USAGE)
    return { id: BigInt(id) }
  }
  if (name !== undefined) return { name }
  if (!/^\d{1,19}$/.test(target!)) return { name: target! }
  const [byId] = await findActiveApiKeys(db, { id: BigInt(target!) })
  const [byName] = await findActiveApiKeys(db, { name: target! })
  if (byId !== undefined && byName !== undefined && byId.id !== byName.id) {
    throw new Error(`"${target}" is the id of one active key and the name of another; say --id ${target} or --name ${target}`)
  }
  if (byId === undefined && byName === undefined) throw new Error(`No active key with the id or name "${target}"`)
  return byId === undefined ? { name: target! } : { id: BigInt(target!) }
}

async function run (db: Kysely<Database>, args: string[]): Promise<string> {
  const { positionals, values } = parseArgs({ args, allowPositionals: true, options: { name: { type: 'string' }, id: { type: 'string' } } })
  const [command, target, ...extra] = positionals
  if (extra.length > 0) throw new UsageError(USAGE)
  switch (command) {
    case 'create': {
      if (target !== undefined || values.id !== undefined) throw new UsageError(USAGE)
      const { key, info } = await createApiKey(db, checkedName(values.name))
      return `Created key "${printable(info.name)}" (id ${info.id}). It is shown this once; store it now:\n\n  ${key}\n`
    }
    case 'list': {
      if (target !== undefined || values.id !== undefined || values.name !== undefined) throw new UsageError(USAGE)
      const keys = await listApiKeys(db)
      return keys.length === 0 ? 'No keys.' : table(keys)
    }
    case 'revoke': {
      const selector = await revokeTarget(db, target, values.id, values.name)
      const revoked = await revokeApiKey(db, selector)
      if (revoked === undefined) throw new Error(`No active key with the ${'id' in selector ? `id ${selector.id}` : `name "${printable(selector.name)}"`}`)
      return `Revoked key "${printable(revoked.name)}" (id ${revoked.id}).`
    }
    default:
      throw new UsageError(USAGE)
  }
}

let db: Kysely<Database> | undefined
try {
  db = await connect({ ...loadConfig().database, blockingWaitMs: SCRIPT_BLOCKING_WAIT_MS })
  await migrateToLatest(db)
  console.log(await run(db, process.argv.slice(2)))
} catch (error) {
  console.error(error instanceof UsageError ? error.message : `keys: ${(error as Error).message}`)
  process.exitCode = error instanceof UsageError ? 2 : 1
} finally {
  await db?.destroy()
}
