import type { Kysely } from 'kysely'

/**
 * The first answer of each create that carried an Idempotency-Key, per API key, kept 24
 * hours so a retry gets it again. Written in the same transaction as the record it
 * created. `expires_at` (milliseconds since the epoch) is indexed, so expired answers are
 * deleted by range, never by scanning the table.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('idempotency_keys')
    .addColumn('api_key_hash', 'text', (column) => column.notNull())
    .addColumn('idempotency_key', 'text', (column) => column.notNull())
    .addColumn('request_hash', 'text', (column) => column.notNull())
    .addColumn('status_code', 'integer', (column) => column.notNull())
    .addColumn('response_body', 'text', (column) => column.notNull())
    .addColumn('expires_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['api_key_hash', 'idempotency_key'])
    .execute()
  await db.schema.createIndex('idempotency_keys_expires_at').on('idempotency_keys').column('expires_at').execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute()
}
