/**
 * API keys in the database: made, listed, revoked, marked as used. Only hashes are stored.
 */
import type { Kysely } from 'kysely'
import type { ApiKeyRow, Database } from '../../database/schema.ts'
import { generateKey, hashKey, keyPrefix } from './key-material.ts'
import { toApiInt } from '../../http/int64.ts'

export interface ApiKeyInfo {
  id: number | bigint
  name: string
  prefix: string
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
}

function toInfo (row: ApiKeyRow): ApiKeyInfo {
  return {
    id: toApiInt(row.id),
    name: row.name,
    prefix: row.key_prefix,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at
  }
}

export class DuplicateKeyNameError extends Error {
  constructor (name: string) {
    super(`an active key named "${name}" already exists`)
  }
}

/** Makes a key and returns it in clear: the only time it is ever seen. */
export async function createApiKey (db: Kysely<Database>, name: string, now = new Date()): Promise<{ key: string, info: ApiKeyInfo }> {
  const existing = await db.selectFrom('api_keys').select('id')
    .where('name', '=', name).where('revoked_at', 'is', null).executeTakeFirst()
  if (existing !== undefined) throw new DuplicateKeyNameError(name)
  const key = generateKey()
  const row = await db.insertInto('api_keys')
    .values({ name, key_hash: hashKey(key), key_prefix: keyPrefix(key), created_at: now.toISOString() })
    .returningAll()
    .executeTakeFirstOrThrow()
  return { key, info: toInfo(row) }
}

/** Every key, revoked ones included, oldest first. */
export async function listApiKeys (db: Kysely<Database>): Promise<ApiKeyInfo[]> {
  const rows = await db.selectFrom('api_keys').selectAll().orderBy('id').execute()
  return rows.map(toInfo)
}

export type KeySelector = { id: bigint } | { name: string }

/** The active keys a selector names (at most one each way: active names are unique). */
export async function findActiveApiKeys (db: Kysely<Database>, selector: KeySelector): Promise<ApiKeyInfo[]> {
  const rows = await db.selectFrom('api_keys').selectAll()
    .where((where) => 'id' in selector ? where('id', '=', selector.id) : where('name', '=', selector.name))
    .where('revoked_at', 'is', null)
    .execute()
  return rows.map(toInfo)
}

/** Revokes the active key the selector names; undefined when there is none. */
export async function revokeApiKey (db: Kysely<Database>, selector: KeySelector, now = new Date()): Promise<ApiKeyInfo | undefined> {
  const row = await db.updateTable('api_keys')
    .set({ revoked_at: now.toISOString() })
    .where((where) => 'id' in selector ? where('id', '=', selector.id) : where('name', '=', selector.name))
    .where('revoked_at', 'is', null)
    .returningAll()
    .executeTakeFirst()
  return row === undefined ? undefined : toInfo(row)
}

/** Hashes of the keys that are not revoked. */
export async function activeKeyHashes (db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('api_keys').select('key_hash').where('revoked_at', 'is', null).execute()
  return rows.map((row) => row.key_hash)
}

/** Records when keys were last used, one statement per key, in one transaction. */
export async function recordKeyUse (db: Kysely<Database>, lastUse: ReadonlyMap<string, Date>): Promise<void> {
  if (lastUse.size === 0) return
  await db.transaction().execute(async (trx) => {
    for (const [hash, at] of lastUse) {
      await trx.updateTable('api_keys').set({ last_used_at: at.toISOString() }).where('key_hash', '=', hash).execute()
    }
  })
}
