import { sql, type Kysely } from 'kysely'

/**
 * The open orders of a pet, found without reading every order: `updatePet` looks for one
 * before it changes a pet's status. Partial, since only open orders are ever looked up by
 * pet, and each pet has at most one.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('orders_open_by_pet').on('orders').column('pet_id').where(sql.ref('complete'), '=', 0).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('orders_open_by_pet').execute()
}
