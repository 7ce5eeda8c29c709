/**
 * PostgreSQL, through node-postgres's pool, made safe for a database that restarts,
 * stalls or drops connections while requests run:
 * - every connection has a connect timeout (also the longest wait for a free one), a
 *   statement timeout enforced by the server, a client-side timeout a second later (for a
 *   server or network that does not answer at all), an idle-in-transaction timeout (the
 *   server ends a session that holds locks and does nothing) and TCP keepalive;
 * - an error on a connection that is checked out (the server went away mid-query) is
 *   logged, never thrown: pg emits it as an event, and without a listener it would end the
 *   process;
 * - a connection whose query failed for any reason but an error the server reported is
 *   closed when it is released instead of going back to the pool: after a client-side
 *   timeout its protocol state is unknown, and the next request must not inherit it. Its
 *   later statements fail at once rather than wait behind the one that hangs.
 */
import type pg from 'pg'
import type { PostgresPool, PostgresPoolClient } from 'kysely'

export interface PostgresOptions {
  url: string
  poolSize: number
  connectTimeoutMs: number
  statementTimeoutMs: number
  idleInTransactionTimeoutMs: number
  keepAliveDelayMs: number
  /** Told when a connection fails (the server restarted, say); the pool replaces it. */
  onConnectionError: (error: Error) => void
}

/** How much longer than the server's statement timeout the client waits for any answer. */
const CLIENT_MARGIN_MS = 1000

export async function openPostgresPool (options: PostgresOptions): Promise<{ pool: pg.Pool, guarded: PostgresPool }> {
  const { default: pg } = await import('pg')
  // int8 columns come back as strings (pg's default), so ids beyond 2^53 are never rounded.
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize,
    connectionTimeoutMillis: options.connectTimeoutMs,
    statement_timeout: options.statementTimeoutMs,
    query_timeout: options.statementTimeoutMs + CLIENT_MARGIN_MS,
    idle_in_transaction_session_timeout: options.idleInTransactionTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: options.keepAliveDelayMs
  })
  // An idle connection's error reaches the pool; a checked-out one's only the client.
  pool.on('error', options.onConnectionError)
  pool.on('connect', (client) => client.on('error', options.onConnectionError))
  return { pool, guarded: guard(pool, pg.DatabaseError) }
}

function guard (pool: pg.Pool, DatabaseError: typeof pg.DatabaseError): PostgresPool {
  const guarded = new WeakMap<pg.PoolClient, PostgresPoolClient>()
  return {
    async connect () {
      const client = await pool.connect()
      let wrapper = guarded.get(client)
      if (wrapper === undefined) {
        let broken: Error | undefined
        wrapper = {
          async query (sql: string, parameters: readonly unknown[]) {
            if (broken !== undefined) throw broken
            try {
              return await client.query(sql, parameters as unknown[])
            } catch (error) {
              if (!(error instanceof DatabaseError)) broken = error as Error
              throw error
            }
          },
          release () {
            const error = broken
            broken = undefined
            // With an error, the pool closes the connection instead of keeping it.
            client.release(error)
          }
        } as unknown as PostgresPoolClient
        guarded.set(client, wrapper)
      }
      return wrapper
    },
    end: () => pool.end()
  }
}
