/**
 * What a DATABASE_URL names: a PostgreSQL database (`postgres://...`) or a SQLite file
 * (a path, `sqlite:PATH` or `:memory:`). Read by connecting, by the first-run key file's
 * folder and by the backup command, and shown in messages without its credentials.
 */

export const isPostgresUrl = (url: string) => /^postgres(ql)?:\/\//i.test(url)

/** The file (or `:memory:`) a SQLite URL names: the URL itself, less any `sqlite:`. */
export const sqlitePath = (url: string) => url.replace(/^sqlite:/, '')

/**
 * The database a URL names, for messages: a SQLite path, or a PostgreSQL URL without its
 * credentials (user, password, and the query, which may carry a password too).
 */
export function describeDatabase (url: string): string {
  if (!isPostgresUrl(url)) return sqlitePath(url)
  try {
    const parsed = new URL(url)
    parsed.username = ''
    parsed.password = ''
    parsed.search = ''
    return parsed.href
  } catch {
    return 'the PostgreSQL database'
  }
}
