import { sql, type Kysely } from 'kysely'

/** An active key's name names one key, so `keys revoke NAME` is never ambiguous. */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('api_keys_active_name').on('api_keys').column('name').unique()
    .where(sql.ref('revoked_at'), 'is', null).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('api_keys_active_name').execute()
}
