/**
 * Database errors recognised on both dialects: those the repositories turn into answers,
 * and those that say the database cannot serve right now (a 503, not a 500).
 */

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code

/** A foreign key names a row that does not exist. */
export function isForeignKeyViolation (error: unknown): boolean {
  const code = codeOf(error)
  // better-sqlite3's extended result code; PostgreSQL's SQLSTATE foreign_key_violation.
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503'
}

/** SQLite: another connection (of this process or another) holds the lock this one needs. */
export function isLockHeld (error: unknown): boolean {
  const code = codeOf(error)
  return typeof code === 'string' && (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED'))
}

/** SQLite result codes (extended ones start with these) of a database that cannot serve now. */
const SQLITE_UNAVAILABLE = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_FULL', 'SQLITE_READONLY', 'SQLITE_IOERR', 'SQLITE_CANTOPEN', 'SQLITE_PROTOCOL', 'SQLITE_NOMEM']

/**
 * PostgreSQL SQLSTATEs, by class or in full: connection exceptions (08), insufficient
 * resources (53: too many connections, disk full), operator intervention (57: a cancelled
 * statement, a shutting-down or restarting server, a terminated backend), system errors
 * (58), a session ended for idling in a transaction (25P03), and conflicts worth retrying
 * (serialization failure, deadlock, lock not available).
 * @see https://www.postgresql.org/docs/current/errcodes-appendix.html
 */
const POSTGRES_UNAVAILABLE = /^(08|53|57|58)|^(25P03|40001|40P01|55P03)$/

/**
 * PostgreSQL: a statement this service prepared no longer fits the tables (another
 * instance migrated them meanwhile) inside a transaction that its failure aborted
 * (./postgres.ts). Its connection is replaced; the request may be retried at once.
 */
export const STALE_STATEMENT = 'PETSTORE_STALE_STATEMENT'

/** Socket errors of a connection that could not be made or was lost. */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN'])

/** What node-postgres says, without a code, of a connection lost, timed out or unusable. */
const POSTGRES_CLIENT_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Query read timeout|Client has encountered a connection error and is not queryable)/

/**
 * Whether an error means the database cannot serve right now: locked, full, read-only,
 * unreachable, restarting, too slow. Such a request is answered 503 with Retry-After,
 * and may well succeed when retried.
 */
export function isDatabaseUnavailable (error: unknown): boolean {
  const code = codeOf(error)
  if (typeof code === 'string') {
    if (code.startsWith('SQLITE_')) return SQLITE_UNAVAILABLE.some((prefix) => code.startsWith(prefix))
    if (NETWORK_CODES.has(code) || POSTGRES_UNAVAILABLE.test(code) || code === STALE_STATEMENT) return true
  }
  return error instanceof Error && POSTGRES_CLIENT_MESSAGES.test(error.message)
}
