/**
 * Events are kept `EVENT_RETENTION_DAYS`, then deleted, oldest first, a small batch per
 * transaction, so no write waits long behind the deletion (on SQLite, a batch holds the one
 * write lock for a moment; on PostgreSQL, it locks only the rows it deletes). A cursor from
 * before the oldest event kept still works: the feed goes on from the oldest there is.
 */
import type { Kysely } from 'kysely'
import { write } from '../../database/group-commit.ts'
import { prepare } from '../../database/prepared.ts'
import type { Database } from '../../database/schema.ts'

/** Events deleted per transaction. */
export const RETENTION_BATCH = 500

const oldestNumbered = prepare<{ limit: number }, { sequence: number | bigint | string, occurred_at: string }>((db, param) =>
  db.selectFrom('events').select(['sequence', 'occurred_at'])
    .where('sequence', 'is not', null)
    .orderBy('sequence').limit(param('limit')))

/**
 * Deletes the events that committed before `cutoff`, a batch at a time; resolves with how
 * many. Each batch is the oldest events by `sequence` (which follows their time), so a
 * batch that holds a younger event is the last. The batch is found by a read, so that a
 * service with nothing to delete never asks for the write lock (another process may hold
 * it for long); each delete is one statement, and says again what it deletes, so two
 * instances deleting at once delete each event once.
 */
export async function deleteExpiredEvents (db: Kysely<Database>, cutoff: Date): Promise<number> {
  const before = cutoff.toISOString()
  let deleted = 0
  for (;;) {
    const { rows } = await oldestNumbered(db, { limit: RETENTION_BATCH })
    const expired = rows.filter((row) => row.occurred_at < before).map((row) => row.sequence)
    if (expired.length > 0) {
      await write(db, (db) => db.deleteFrom('events').where('sequence', 'in', expired).where('occurred_at', '<', before).execute())
    }
    deleted += expired.length
    if (expired.length < RETENTION_BATCH) return deleted
  }
}
