import { sql, type Kysely } from 'kysely'

/**
 * What a key may do and until when: its scopes (space-separated, as OAuth writes them), an
 * expiry, and when it was replaced by a rotation. Keys made before this get the four scopes
 * there are and no expiry, so an upgrade locks no one out.
 *
 * A rotation leaves two keys of one name while the old one's grace runs, so a name now
 * names one *current* key: neither revoked nor replaced.
 */
const EVERY_SCOPE_THEN = 'orders:read orders:write pets:read pets:write'

export async function up (db: Kysely<any>): Promise<void> {
  // A key made without scopes can do nothing: the service always writes them.
  await db.schema.alterTable('api_keys').addColumn('scopes', 'text', (column) => column.notNull().defaultTo('')).execute()
  await db.schema.alterTable('api_keys').addColumn('expires_at', 'text').execute()
  await db.schema.alterTable('api_keys').addColumn('replaced_at', 'text').execute()
  await db.updateTable('api_keys').set({ scopes: EVERY_SCOPE_THEN }).execute()
  await db.schema.dropIndex('api_keys_active_name').execute()
  await db.schema.createIndex('api_keys_current_name').on('api_keys').column('name').unique()
    .where((where) => where.and([where(sql.ref('revoked_at'), 'is', null), where(sql.ref('replaced_at'), 'is', null)])).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('api_keys_current_name').execute()
  await db.schema.createIndex('api_keys_active_name').on('api_keys').column('name').unique()
    .where(sql.ref('revoked_at'), 'is', null).execute()
  await db.schema.alterTable('api_keys').dropColumn('replaced_at').execute()
  await db.schema.alterTable('api_keys').dropColumn('expires_at').execute()
  await db.schema.alterTable('api_keys').dropColumn('scopes').execute()
}
