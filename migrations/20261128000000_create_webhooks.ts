import { sql, SqliteAdapter, type Kysely } from 'kysely'

/**
 * Webhooks (src/features/webhooks/): the endpoints events are delivered to, what each
 * subscribes to, and its deliveries.
 *
 * - `webhook_endpoints`: `events` is the selection as the API answers it (JSON); `secret`
 *   and `previous_secret` are sealed (sealing.ts there), never stored in the clear;
 *   `previous_secret` signs too until `previous_secret_expires_at` (a rotation's grace);
 *   `failing_since` is when its deliveries started failing, none having succeeded since.
 *   `enabled` is 0 or 1.
 * - `webhook_subscriptions`: one row per selection (`pet.created`, `order.*`, `*`), so a
 *   change finds the endpoints of its events by index, in the statement that writes them.
 * - `webhook_deliveries`: one row per attempt, written `pending` with the event, in the
 *   transaction of its change (the outbox), and updated with the attempt's outcome; a
 *   failure that is tried again adds the next attempt's row. A worker claims a pending row
 *   by setting `lease_until` (another instance may take it over once that has passed).
 *   `first_attempt` is the attempt a series of retries started at (1, or a `recover`'s).
 *   Removing an endpoint removes its deliveries; an event expiring removes its own.
 *
 * Times are RFC 3339 text in UTC with milliseconds, as everywhere else: they compare as
 * they sort.
 */
export async function up (db: Kysely<any>): Promise<void> {
  const sqlite = db.getExecutor().adapter instanceof SqliteAdapter
  const id = (name: string) => [name, sqlite ? 'integer' : 'bigint', (column: any) =>
    sqlite ? column.primaryKey().autoIncrement() : column.primaryKey().generatedByDefaultAsIdentity()] as const
  await db.schema
    .createTable('webhook_endpoints')
    .addColumn(...id('id'))
    .addColumn('url', 'text', (column) => column.notNull())
    .addColumn('events', 'text', (column) => column.notNull())
    .addColumn('description', 'text')
    .addColumn('enabled', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'text', (column) => column.notNull())
    .addColumn('secret', 'text', (column) => column.notNull())
    .addColumn('previous_secret', 'text')
    .addColumn('previous_secret_expires_at', 'text')
    .addColumn('failing_since', 'text')
    .execute()
  await db.schema
    .createTable('webhook_subscriptions')
    .addColumn('selection', 'text', (column) => column.notNull())
    .addColumn('endpoint_id', 'bigint', (column) => column.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('webhook_subscriptions_pkey', ['selection', 'endpoint_id'])
    .execute()
  await db.schema.createIndex('webhook_subscriptions_endpoint').on('webhook_subscriptions').column('endpoint_id').execute()
  await db.schema
    .createTable('webhook_deliveries')
    .addColumn(...id('id'))
    .addColumn('endpoint_id', 'bigint', (column) => column.notNull().references('webhook_endpoints.id').onDelete('cascade'))
    .addColumn('event_id', 'text', (column) => column.notNull().references('events.id').onDelete('cascade'))
    .addColumn('attempt', 'integer', (column) => column.notNull())
    .addColumn('first_attempt', 'integer', (column) => column.notNull())
    .addColumn('outcome', 'text', (column) => column.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('error', 'text')
    .addColumn('duration_ms', 'integer')
    .addColumn('attempted_at', 'text')
    .addColumn('next_attempt_at', 'text')
    .addColumn('lease_until', 'text')
    .execute()
  // The pending rows: in the order they come due (the look for any due, the metrics), and
  // each endpoint's in that order (a claim takes each endpoint's oldest due, up to its share).
  await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').column('next_attempt_at')
    .where(sql.ref('outcome'), '=', sql.lit('pending')).execute()
  await db.schema.createIndex('webhook_deliveries_endpoint_due').on('webhook_deliveries').columns(['endpoint_id', 'next_attempt_at'])
    .where(sql.ref('outcome'), '=', sql.lit('pending')).execute()
  await db.schema.createIndex('webhook_deliveries_log').on('webhook_deliveries').columns(['endpoint_id', 'id']).execute()
  await db.schema.createIndex('webhook_deliveries_event').on('webhook_deliveries').columns(['event_id', 'endpoint_id']).execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webhook_deliveries').execute()
  await db.schema.dropTable('webhook_subscriptions').execute()
  await db.schema.dropTable('webhook_endpoints').execute()
}
