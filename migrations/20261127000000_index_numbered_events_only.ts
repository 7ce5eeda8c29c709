import { sql, SqliteAdapter, type Kysely } from 'kysely'

/**
 * PostgreSQL: the feed's indexes hold numbered events only. An event is written without a
 * number and numbered once committed (src/features/events/sequencer.ts), so an index over
 * `sequence` took an entry for every event written, one that no read uses, and another when
 * it was numbered. Partial, each write of an event costs two index entries fewer; the feed's
 * reads (`sequence > cursor`) imply `sequence is not null` and use them as before.
 *
 * SQLite gives the number as it writes the row: nothing to do.
 */
export async function up (db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return
  await sql`alter table events drop constraint events_sequence_key`.execute(db)
  await db.schema.createIndex('events_sequence').unique().on('events').column('sequence').where(sql.ref('sequence'), 'is not', null).execute()
  await db.schema.dropIndex('events_type_sequence').execute()
  await db.schema.createIndex('events_type_sequence').on('events').columns(['type', 'sequence']).where(sql.ref('sequence'), 'is not', null).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return
  await db.schema.dropIndex('events_type_sequence').execute()
  await db.schema.createIndex('events_type_sequence').on('events').columns(['type', 'sequence']).execute()
  await db.schema.dropIndex('events_sequence').execute()
  await sql`alter table events add constraint events_sequence_key unique (sequence)`.execute(db)
}
