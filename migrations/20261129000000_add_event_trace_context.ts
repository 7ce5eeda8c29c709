import type { Kysely } from 'kysely'

/**
 * Each event keeps the trace of the change that wrote it, as a W3C `traceparent`, so that a
 * webhook delivery made later, by any instance, is a span of that trace
 * (src/tracing/trace-context.ts). Null where tracing was off or nothing was traced.
 */
export async function up (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').addColumn('trace_context', 'text').execute()
}

export async function down (db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('events').dropColumn('trace_context').execute()
}
