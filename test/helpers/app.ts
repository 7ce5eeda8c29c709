/**
 * Builds an app on a fresh database for one test, and closes it afterwards.
 *
 * The database is SQLite in memory, or, with PETSTORE_TEST_DATABASE=postgres
 * (`npm run test:postgres`), a PostgreSQL database made for the test and dropped after it:
 * the same test files prove the same behaviour on both.
 */
import type { Kysely } from 'kysely'
import type { Test } from 'tap'
import { buildApp, type AppOptions } from '../../src/app.ts'
import { DEFAULTS } from '../../src/config/defaults.ts'
import { connect } from '../../src/database/connect.ts'
import { migrateToLatest } from '../../src/database/migrate.ts'
import type { Database } from '../../src/database/schema.ts'
import { createPostgresDatabase, POSTGRES_ADMIN_URL } from './services.ts'

/** A clearly fake key, accepted through the environment-keys path. */
export const TEST_KEY = 'test-key-not-a-real-secret-0000'
export const AUTH = { authorization: `Bearer ${TEST_KEY}` } as const
export const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' } as const
/** A clearly fake key for sealing webhook secrets: the 32 bytes of `test-only-webhook-secrets-key-00`. */
export const TEST_SECRETS_KEY = Buffer.from('test-only-webhook-secrets-key-00').toString('base64')

export const TEST_DATABASE = process.env.PETSTORE_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite'

/** A fresh, empty database for one test, of the kind this run tests. */
export async function testDatabaseUrl (t: Test): Promise<string> {
  if (TEST_DATABASE === 'sqlite') return ':memory:'
  // This run was asked for PostgreSQL: a missing server is a failure, not a skip.
  return createPostgresDatabase(t).catch((error: Error) => {
    throw new Error(`PETSTORE_TEST_DATABASE=postgres, but no test database could be made at ${POSTGRES_ADMIN_URL}: ${error.message}`)
  })
}

/**
 * A fresh database for one test, migrated, without an app: its `db`, its `url`, and
 * `statements`, the SQL of every query it runs from then on, lower-cased (the migrations'
 * left out).
 */
export async function recordingDatabase (t: Test): Promise<{ db: Kysely<Database>, url: string, statements: string[] }> {
  const statements: string[] = []
  const url = await testDatabaseUrl(t)
  const db = await connect({ ...DEFAULTS.database, url, onQuery: (event) => { statements.push(event.query.sql.toLowerCase()) } })
  t.teardown(() => db.destroy())
  await migrateToLatest(db)
  statements.length = 0
  return { db, url, statements }
}

export async function build (t: Test, options: Partial<AppOptions> = {}) {
  const database = options.database ?? { url: await testDatabaseUrl(t) }
  // Overload shedding off unless a test asks for it: the test files running beside it on a
  // small machine lag the event loop, and its 503s would blur what a test looks at.
  const pressure = { maxEventLoopDelayMs: 0, ...options.pressure }
  // A key given, so that no test leaves a key file in the working directory (PostgreSQL's default place).
  const webhooks = { secretsKey: TEST_SECRETS_KEY, ...options.webhooks }
  const app = await buildApp({ apiKeys: [TEST_KEY], ...options, database, pressure, webhooks })
  t.teardown(() => app.close())
  return app
}
