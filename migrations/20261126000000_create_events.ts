import { sql, SqliteAdapter, type Kysely } from 'kysely'

/**
 * Events: every change to a pet or an order, written in the transaction of the change (an
 * outbox), and read back as the feed (src/features/events/).
 *
 * - `position` is the order rows were inserted in; `sequence`, the feed's order, is the
 *   order the changes committed. SQLite commits one writer at a time, so a change takes its
 *   numbers from `event_sequence` as it writes. PostgreSQL commits concurrent transactions
 *   in any order, so a row is written without one and numbered after it commits, by one
 *   numbering pass at a time (see sequencer.ts there); `transaction_id` keeps the events of
 *   one change together, and the partial index finds the rows still to number.
 * - `data` and `previous` are the resource and its changed fields as JSON, every integer
 *   digit for digit; `occurred_at` is when the change was written (RFC 3339).
 * - `event_sequence` holds the last number given, so numbers keep growing after retention
 *   has deleted every event.
 */
export async function up (db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  await db.schema
    .createTable('events')
    .addColumn('position', sqlite ? 'integer' : 'bigint', (column) =>
      sqlite ? column.primaryKey().autoIncrement() : column.primaryKey().generatedByDefaultAsIdentity())
    .addColumn('id', 'text', (column) => column.notNull().unique())
    .addColumn('sequence', 'bigint')
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('occurred_at', 'text', (column) => column.notNull())
    .addColumn('data', 'text', (column) => column.notNull())
    .addColumn('previous', 'text')
    .addColumn('transaction_id', 'bigint', (column) => sqlite ? column : column.defaultTo(sql`(pg_current_xact_id()::text::bigint)`))
    .execute()
  await db.schema.createIndex('events_sequence').on('events').column('sequence').unique().execute()
  await db.schema.createIndex('events_type_sequence').on('events').columns(['type', 'sequence']).execute()
  if (!sqlite) {
    await db.schema.createIndex('events_unnumbered').on('events').column('position').where(sql.ref('sequence'), 'is', null).execute()
  }
  await db.schema
    .createTable('event_sequence')
    .addColumn('id', 'integer', (column) => column.primaryKey())
    .addColumn('last', 'bigint', (column) => column.notNull())
    .execute()
  await db.insertInto('event_sequence').values({ id: 1, last: 0 }).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_sequence').execute()
  await db.schema.dropTable('events').execute()
}
