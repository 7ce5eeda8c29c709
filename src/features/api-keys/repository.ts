/**
 * API keys in the database: made, listed, rotated, revoked, marked as used. Only hashes are
 * stored.
 *
 * A name names one *current* key (neither revoked nor replaced). A rotation replaces it
 * with a new key of the same name, scopes and lifetime, and gives the old one an expiry at the end
 * of its grace, so for that while two keys share the name.
 */
import type { Expression, ExpressionBuilder, Kysely, SqlBool } from 'kysely'
import type { ApiKeyRow, Database } from '../../database/schema.ts'
import { generateKey, hashKey, keyPrefix } from './key-material.ts'
import { toApiInt } from '../../http/int64.ts'

export interface ApiKeyInfo {
  id: number | bigint
  name: string
  prefix: string
  scopes: string[]
  createdAt: string
  /** When the key stops working; null: never. */
  expiresAt: string | null
  lastUsedAt: string | null
  revokedAt: string | null
  /** When a rotation replaced it; null: it is its name's current key. */
  replacedAt: string | null
}

/** Scopes as stored: space-separated, as OAuth writes a scope list. */
const toScopes = (stored: string): string[] => stored.split(' ').filter((scope) => scope !== '')
const storedScopes = (scopes: readonly string[]): string => scopes.join(' ')

function toInfo (row: ApiKeyRow): ApiKeyInfo {
  return {
    id: toApiInt(row.id),
    name: row.name,
    prefix: row.key_prefix,
    scopes: toScopes(row.scopes),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
    replacedAt: row.replaced_at
  }
}

export class DuplicateKeyNameError extends Error {
  constructor (existing: ApiKeyInfo, now: Date) {
    const expired = existing.expiresAt !== null && Date.parse(existing.expiresAt) <= now.getTime()
    super(expired
      ? `a key named "${existing.name}" already exists, expired since ${existing.expiresAt}: rotate it to replace it, or revoke it first`
      : `an active key named "${existing.name}" already exists: rotate it to replace it, or revoke it first`)
  }
}

export interface NewKey {
  name: string
  /** At least one; the caller checks them against the document's scopes. */
  scopes: readonly string[]
  expiresAt?: Date
}

/** The keys a selector names: the one of that id, or every one of that name. */
function selected (selector: KeySelector) {
  return (where: ExpressionBuilder<Database, 'api_keys'>): Expression<SqlBool> =>
    'id' in selector ? where('id', '=', selector.id) : where('name', '=', selector.name)
}

/** The key a name or id names that is neither revoked nor replaced. */
function current (db: Kysely<Database>, selector: KeySelector) {
  return db.selectFrom('api_keys').selectAll()
    .where(selected(selector))
    .where('revoked_at', 'is', null).where('replaced_at', 'is', null)
}

async function insertKey (db: Kysely<Database>, { name, scopes, expiresAt }: NewKey, now: Date): Promise<{ key: string, info: ApiKeyInfo }> {
  const key = generateKey()
  const row = await db.insertInto('api_keys')
    .values({
      name,
      key_hash: hashKey(key),
      key_prefix: keyPrefix(key),
      scopes: storedScopes(scopes),
      created_at: now.toISOString(),
      expires_at: expiresAt?.toISOString() ?? null
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return { key, info: toInfo(row) }
}

/** Makes a key and returns it in clear: the only time it is ever seen. */
export async function createApiKey (db: Kysely<Database>, key: NewKey, now = new Date()): Promise<{ key: string, info: ApiKeyInfo }> {
  return db.transaction().execute(async (trx) => {
    const existing = await current(trx, { name: key.name }).executeTakeFirst()
    if (existing !== undefined) throw new DuplicateKeyNameError(toInfo(existing), now)
    return insertKey(trx, key, now)
  })
}

export interface Rotation {
  /** How long the old key keeps working; 0 ends it now. */
  graceMs: number
  /** The new key's expiry; by default the old key's lifetime (its expiry less its creation) from now, or none if it had none. */
  expiresAt?: Date
}

/** When a key that replaces `old` at `now` expires: it lasts as long as `old` was made to last. */
function sameLifetime (old: ApiKeyRow, now: Date): Date | undefined {
  if (old.expires_at === null) return undefined
  return new Date(now.getTime() + Date.parse(old.expires_at) - Date.parse(old.created_at))
}

/**
 * Replaces the current key of a name (or id) with a new one of the same name, scopes and
 * lifetime, returned in clear; the old one works until the grace ends, or its own expiry if
 * sooner. Undefined when there is no such key.
 */
export async function rotateApiKey (db: Kysely<Database>, selector: KeySelector, { graceMs, expiresAt }: Rotation, now = new Date()):
Promise<{ key: string, info: ApiKeyInfo, replaced: ApiKeyInfo } | undefined> {
  return db.transaction().execute(async (trx) => {
    const old = await current(trx, selector).executeTakeFirst()
    if (old === undefined) return undefined
    const graceEnds = new Date(now.getTime() + graceMs)
    const ends = old.expires_at !== null && Date.parse(old.expires_at) < graceEnds.getTime() ? old.expires_at : graceEnds.toISOString()
    const replaced = await trx.updateTable('api_keys').set({ replaced_at: now.toISOString(), expires_at: ends })
      .where('id', '=', old.id).returningAll().executeTakeFirstOrThrow()
    const made = await insertKey(trx, { name: old.name, scopes: toScopes(old.scopes), expiresAt: expiresAt ?? sameLifetime(old, now) }, now)
    return { ...made, replaced: toInfo(replaced) }
  })
}

/** Every key, revoked ones included, oldest first. */
export async function listApiKeys (db: Kysely<Database>): Promise<ApiKeyInfo[]> {
  const rows = await db.selectFrom('api_keys').selectAll().orderBy('id').execute()
  return rows.map(toInfo)
}

export type KeySelector = { id: bigint } | { name: string }

/** The keys a selector names that are not revoked: by name, its current key and any in their grace. */
export async function findActiveApiKeys (db: Kysely<Database>, selector: KeySelector): Promise<ApiKeyInfo[]> {
  const rows = await db.selectFrom('api_keys').selectAll()
    .where(selected(selector))
    .where('revoked_at', 'is', null)
    .orderBy('id')
    .execute()
  return rows.map(toInfo)
}

/** Revokes the keys the selector names that are not revoked yet (by name, every one); none when there is none. */
export async function revokeApiKeys (db: Kysely<Database>, selector: KeySelector, now = new Date()): Promise<ApiKeyInfo[]> {
  const rows = await db.updateTable('api_keys')
    .set({ revoked_at: now.toISOString() })
    .where(selected(selector))
    .where('revoked_at', 'is', null)
    .returningAll()
    .execute()
  return rows.map(toInfo).sort((a, b) => Number(a.id) - Number(b.id))
}

export interface CurrentKey {
  hash: string
  scopes: string[]
  expiresAt: string | null
}

/** The keys that are not revoked, expired ones included, so that their 401 can say so. */
export async function currentKeys (db: Kysely<Database>): Promise<CurrentKey[]> {
  const rows = await db.selectFrom('api_keys').select(['key_hash', 'scopes', 'expires_at']).where('revoked_at', 'is', null).execute()
  return rows.map((row) => ({ hash: row.key_hash, scopes: toScopes(row.scopes), expiresAt: row.expires_at }))
}

/**
 * Records when keys were last used, in one statement: atomic without a transaction, and
 * on SQLite it never waits for a lock another process holds (it fails at once, and the
 * times are written at the next sync).
 */
export async function recordKeyUse (db: Kysely<Database>, lastUse: ReadonlyMap<string, Date>): Promise<void> {
  if (lastUse.size === 0) return
  const hashes = [...lastUse.keys()]
  await db.updateTable('api_keys')
    .set((eb) => {
      let when = eb.case('key_hash').when(hashes[0]!).then(lastUse.get(hashes[0]!)!.toISOString())
      for (const hash of hashes.slice(1)) when = when.when(hash).then(lastUse.get(hash)!.toISOString())
      return { last_used_at: when.end() }
    })
    .where('key_hash', 'in', hashes)
    .execute()
}
