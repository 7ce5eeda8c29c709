import { SqliteAdapter, type Kysely } from 'kysely'

/** API keys, stored only as SHA-256 hashes. */
export async function up (db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  await db.schema
    .createTable('api_keys')
    .addColumn('id', sqlite ? 'integer' : 'bigint', (column) =>
      sqlite ? column.primaryKey().autoIncrement() : column.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('key_hash', 'text', (column) => column.notNull().unique())
    .addColumn('key_prefix', 'text', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('revoked_at', 'text')
    .execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_keys').execute()
}
