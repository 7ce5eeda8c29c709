/**
 * Kept answers of idempotent creates. Plain functions taking `db` (or a transaction) first.
 */
import type { Kysely } from 'kysely'
import type { Database } from '../../database/schema.ts'

export interface KeptAnswer { requestHash: string, status: number, body: string }

/** The answer kept for a key of an API key, unless it has expired. */
export async function findKeptAnswer (db: Kysely<Database>, apiKeyHash: string, key: string, now: number): Promise<KeptAnswer | undefined> {
  const row = await db.selectFrom('idempotency_keys').select(['request_hash', 'status_code', 'response_body'])
    .where('api_key_hash', '=', apiKeyHash).where('idempotency_key', '=', key).where('expires_at', '>', now)
    .executeTakeFirst()
  return row === undefined ? undefined : { requestHash: row.request_hash, status: Number(row.status_code), body: row.response_body }
}

/** Keeps an answer until `expiresAt`, replacing an expired one for the same key. */
export async function keepAnswer (db: Kysely<Database>, apiKeyHash: string, key: string, answer: KeptAnswer, expiresAt: number): Promise<void> {
  const row = { request_hash: answer.requestHash, status_code: answer.status, response_body: answer.body, expires_at: expiresAt }
  await db.insertInto('idempotency_keys').values({ api_key_hash: apiKeyHash, idempotency_key: key, ...row })
    .onConflict((conflict) => conflict.columns(['api_key_hash', 'idempotency_key']).doUpdateSet(row))
    .execute()
}

/** Deletes expired answers: a range of the expires_at index, never a scan. Answers how many. */
export async function deleteExpiredAnswers (db: Kysely<Database>, now: number): Promise<number> {
  const result = await db.deleteFrom('idempotency_keys').where('expires_at', '<=', now).executeTakeFirst()
  return Number(result.numDeletedRows)
}
