/**
 * Database errors the repositories turn into answers, recognised on both dialects.
 */

/** A foreign key names a row that does not exist. */
export function isForeignKeyViolation (error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  // better-sqlite3's extended result code; PostgreSQL's SQLSTATE foreign_key_violation.
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503'
}
