import { SqliteAdapter, type Kysely } from 'kysely'

/**
 * Pets, with ids that increase and are never reused, even after a crash: SQLite's
 * AUTOINCREMENT remembers the highest id ever handed out; a PostgreSQL identity's
 * sequence never goes back.
 */
export async function up (db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  await db.schema
    .createTable('pets')
    .addColumn('id', sqlite ? 'integer' : 'bigint', (column) =>
      sqlite ? column.primaryKey().autoIncrement() : column.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('category_id', 'bigint', (column) => column.notNull())
    .addColumn('status', 'text')
    .execute()
  // Serves the `status` filter with keyset paging: WHERE status = ? AND id > ? ORDER BY id.
  await db.schema.createIndex('pets_status_id').on('pets').columns(['status', 'id']).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('pets').execute()
}
