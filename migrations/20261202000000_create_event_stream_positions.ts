import type { Kysely } from 'kysely'

/**
 * Event streams (src/features/event-stream/): how far each broker destination has been
 * published, and which instance publishes to it.
 *
 * - `destination` names the broker's stream or exchange (`nats PETSTORE_EVENTS`,
 *   `amqp petstore.events`), never its address or credentials: a broker moved to another
 *   host keeps its position.
 * - `position` is the `sequence` of the last event the broker confirmed; every event after
 *   it is still to publish, in feed order.
 * - `holder` and `lease_until`: the one instance publishing, until that time (RFC 3339 text
 *   in UTC with milliseconds, as everywhere else); another takes over once it has passed.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_stream_positions')
    .addColumn('destination', 'text', (column) => column.primaryKey().notNull())
    .addColumn('position', 'bigint', (column) => column.notNull())
    .addColumn('holder', 'text')
    .addColumn('lease_until', 'text')
    .execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('event_stream_positions').execute()
}
