import { sql, SqliteAdapter, type Kysely } from 'kysely'

/**
 * Events: every change to a pet or an order, written in the transaction of the change (an
 * outbox), and read back as the feed (src/features/events/), by `sequence`: the order the
 * changes committed.
 *
 * - SQLite commits one writer at a time, so an event can take its number as it is written:
 *   `sequence` is the table's key, given by SQLite as each row is inserted, one above the
 *   highest ever given (AUTOINCREMENT keeps that after retention deletes every event).
 * - PostgreSQL commits concurrent transactions in any order, so an event is written without
 *   a number, keyed by `position` (the order rows were written), and numbered after it
 *   commits, by one numbering pass at a time (sequencer.ts there), from `event_sequence`,
 *   which holds the last number given; `transaction_id` keeps the events of one change
 *   together, and the partial index finds the rows still to number.
 * - `data` and `previous` are the resource and its changed fields as JSON, every integer
 *   digit for digit; `occurred_at` is when the change was written (RFC 3339).
 */
export async function up (db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  let events = db.schema.createTable('events')
  events = sqlite
    ? events.addColumn('sequence', 'integer', (column) => column.primaryKey().autoIncrement())
    : events
      .addColumn('position', 'bigint', (column) => column.primaryKey().generatedByDefaultAsIdentity())
      .addColumn('sequence', 'bigint', (column) => column.unique())
  await events
    .addColumn('id', 'text', (column) => column.notNull().unique())
    .addColumn('type', 'text', (column) => column.notNull())
    .addColumn('occurred_at', 'text', (column) => column.notNull())
    .addColumn('data', 'text', (column) => column.notNull())
    .addColumn('previous', 'text')
    .addColumn('transaction_id', 'bigint', (column) => sqlite ? column : column.defaultTo(sql`(pg_current_xact_id()::text::bigint)`))
    .execute()
  await db.schema.createIndex('events_type_sequence').on('events').columns(['type', 'sequence']).execute()
  if (!sqlite) {
    await db.schema.createIndex('events_unnumbered').on('events').column('position').where(sql.ref('sequence'), 'is', null).execute()
    await db.schema
      .createTable('event_sequence')
      .addColumn('id', 'integer', (column) => column.primaryKey())
      .addColumn('last', 'bigint', (column) => column.notNull())
      .execute()
    await db.insertInto('event_sequence').values({ id: 1, last: 0 }).execute()
  }
}

export async function down (db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof SqliteAdapter)) await db.schema.dropTable('event_sequence').execute()
  await db.schema.dropTable('events').execute()
}
