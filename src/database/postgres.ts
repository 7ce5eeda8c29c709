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
 *   later statements fail at once rather than wait behind the one that hangs;
 * - the queries written with `prepare` (./prepared.ts) run as named statements, parsed and
 *   planned once per connection. A statement prepared before the tables changed (another
 *   instance migrating: `select *` then has other columns) or dropped by the server
 *   no longer runs: the query runs again unnamed, and the connection is replaced when
 *   released. Inside a transaction, which that failure has aborted, the request fails
 *   with an error that says so, answered 503 like any database not able to serve right now.
 */
import type pg from 'pg'
import type { PostgresPool, PostgresPoolClient } from 'kysely'
import { STALE_STATEMENT } from './errors.ts'
import { statementName } from './prepared.ts'
import { requireDriver } from '../tracing/require-driver.ts'

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
  const pg = requireDriver<typeof import('pg').default>('pg')
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

/**
 * SQLSTATEs of a named statement that no longer runs as prepared: feature_not_supported
 * ("cached plan must not change result type": its tables changed) and
 * invalid_sql_statement_name (the server no longer has it: a pooler, a DISCARD).
 */
const STALE_STATEMENT_CODES = new Set(['0A000', '26000'])

function guard (pool: pg.Pool, DatabaseError: typeof pg.DatabaseError): PostgresPool {
  const guarded = new WeakMap<pg.PoolClient, PostgresPoolClient>()
  return {
    async connect () {
      const client = await pool.connect()
      let wrapper = guarded.get(client)
      if (wrapper === undefined) {
        let broken: Error | undefined
        let stale: Error | undefined
        const run = async (query: string | pg.QueryConfig, parameters: unknown[]) => {
          try {
            return await client.query(query, parameters)
          } catch (error) {
            if (!(error instanceof DatabaseError)) broken = error as Error
            throw error
          }
        }
        wrapper = {
          async query (sql: string, parameters: readonly unknown[]) {
            if (broken !== undefined) throw broken
            const name = statementName(sql)
            if (name === undefined || stale !== undefined) return await run(sql, [...parameters])
            try {
              return await run({ name, text: sql }, [...parameters])
            } catch (error) {
              if (!(error instanceof DatabaseError && STALE_STATEMENT_CODES.has(error.code!))) throw error
              stale = Object.assign(new Error(`the statement prepared as ${name} no longer fits the database (${error.message}): the connection is replaced`, { cause: error }), { code: STALE_STATEMENT })
              try {
                return await run(sql, [...parameters])
              } catch (retried) {
                // in_failed_sql_transaction: inside a transaction, which the failure aborted.
                throw retried instanceof DatabaseError && retried.code === '25P02' ? stale : retried
              }
            }
          },
          release () {
            const error = broken ?? stale
            broken = undefined
            stale = undefined
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
