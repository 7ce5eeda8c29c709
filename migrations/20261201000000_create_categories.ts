import { sql, SqliteAdapter, type Kysely } from 'kysely'

/**
 * Categories, with ids that increase and are never reused (as for pets). `name_key` is the
 * name as names are compared (Unicode NFC, case-folded), written by the service: its unique
 * index is what keeps two categories from one name, whichever instance writes them. No
 * foreign key from pets: since 1.0.0 a pet may name any category id, existing or not.
 *
 * Changes to categories are recorded in `row_changes` as those of pets and orders are
 * (20261130000000_record_row_changes.ts), so the response cache drops only the answers
 * a category change can affect.
 */
export async function up (db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  await db.schema
    .createTable('categories')
    .addColumn('id', sqlite ? 'integer' : 'bigint', (column) =>
      sqlite ? column.primaryKey().autoIncrement() : column.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('name', 'text', (column) => column.notNull())
    .addColumn('name_key', 'text', (column) => column.notNull())
    .addColumn('description', 'text')
    .execute()
  await db.schema.createIndex('categories_name_key').on('categories').column('name_key').unique().execute()
  if (sqlite) {
    const record = (row: 'new' | 'old') => sql.raw(`insert into row_changes (table_name, row_id) values ('categories', ${row}.id);`)
    await sql`create trigger categories_inserted after insert on categories begin ${record('new')} end`.execute(db)
    await sql`create trigger categories_updated after update on categories begin
      ${record('old')} insert into row_changes (table_name, row_id) select 'categories', new.id where new.id <> old.id; end`.execute(db)
    await sql`create trigger categories_deleted after delete on categories begin ${record('old')} end`.execute(db)
    return
  }
  await sql`create trigger categories_changed after insert or update or delete on categories
    for each row execute function record_row_change()`.execute(db)
  await sql`create trigger categories_truncated after truncate on categories
    for each statement execute function record_truncate()`.execute(db)
}

export async function down (db: Kysely<any>): Promise<void> {
  // Dropping the table drops its triggers on both databases.
  await db.schema.dropTable('categories').execute()
}
