/**
 * API keys in the database: made, listed, revoked. Only hashes are stored.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../database/schema.ts'
import { generateKey, hashKey, keyPrefix } from '../keys.ts'
import { toApiInt } from '../int64.ts'

export interface ApiKeyInfo {
  id: number | bigint
  name: string
  prefix: string
  createdAt: string
  lastUsedAt: string | null
  revokedAt: string | null
}

/** Makes a key and returns it in clear: the only time it is ever seen. */
export async function createApiKey (db: Kysely<Database>, name: string, now = new Date()): Promise<{ key: string, info: ApiKeyInfo }> {
  const key = generateKey()
  const row = await db.insertInto('api_keys')
    .values({ name, key_hash: hashKey(key), key_prefix: keyPrefix(key), created_at: now.toISOString() })
    .returningAll()
    .executeTakeFirstOrThrow()
  return {
    key,
    info: { id: toApiInt(row.id), name: row.name, prefix: row.key_prefix, createdAt: row.created_at, lastUsedAt: null, revokedAt: null }
  }
}

/** Hashes of the keys that are not revoked. */
export async function activeKeyHashes (db: Kysely<Database>): Promise<string[]> {
  const rows = await db.selectFrom('api_keys').select('key_hash').where('revoked_at', 'is', null).execute()
  return rows.map((row) => row.key_hash)
}
