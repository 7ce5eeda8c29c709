import { SqliteAdapter, type Kysely } from 'kysely'

/**
 * Store orders. Ids increase and are never reused (as for pets), so a cancelled order's
 * id never comes back. `pet_id` must name a pet: the foreign key holds that on both
 * databases (SQLite runs with `foreign_keys = ON`). `complete` is 0 or 1 on both.
 */
export async function up (db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  await db.schema
    .createTable('orders')
    .addColumn('id', sqlite ? 'integer' : 'bigint', (column) =>
      sqlite ? column.primaryKey().autoIncrement() : column.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('pet_id', 'bigint', (column) => column.notNull().references('pets.id'))
    .addColumn('quantity', 'integer', (column) => column.notNull())
    .addColumn('ship_date', 'text')
    .addColumn('complete', 'integer', (column) => column.notNull())
    .execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('orders').execute()
}
