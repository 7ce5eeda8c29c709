/**
 * Serves `listPets`' `categoryId` filter with keyset paging, alone or with `status`, so a
 * page reads only its own rows whatever the table's size:
 * - WHERE category_id = ? AND id > ? ORDER BY id: (category_id, id);
 * - WHERE category_id = ? AND status = ? AND id > ? ORDER BY id: (category_id, status, id).
 */
import type { Kysely } from 'kysely'

export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('pets_category_id').on('pets').columns(['category_id', 'id']).execute()
  await db.schema.createIndex('pets_category_status_id').on('pets').columns(['category_id', 'status', 'id']).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('pets_category_status_id').execute()
  await db.schema.dropIndex('pets_category_id').execute()
}
