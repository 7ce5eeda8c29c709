/**
 * Optional services (Redis, PostgreSQL) for the tests that need a real one. On a laptop without the
 * service those tests are skipped with a message saying so; CI sets
 * PETSTORE_REQUIRE_SERVICES=1, which turns a missing service into a failure.
 */
import { randomBytes } from 'node:crypto'
import { connect } from 'node:net'
import pg from 'pg'
import type { Test } from 'tap'

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

/**
 * Whether a server accepts connections at `url`'s host and port. An absent one on this
 * machine refuses at once; the ceiling is for a host that never answers. It is generous,
 * and looked at only after the turn's I/O: a test process starved of CPU for a while (many
 * test files at once on a small machine) meets its timers before the connection it
 * already has, and a server that answered would be taken for an absent one.
 */
function reachable (url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port || (url.startsWith('redis') ? 6379 : 5432)), hostname)
    let decided = false
    const done = (ok: boolean) => {
      if (decided) return
      decided = true
      clearTimeout(ceiling)
      socket.destroy()
      resolve(ok)
    }
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
    const ceiling = setTimeout(() => setImmediate(() => done(false)), 5000)
  })
}

/** A skip reason when Redis is absent and not required; false when the tests can run. */
export async function redisSkipReason (): Promise<string | false> {
  if (await reachable(REDIS_URL)) return false
  if (process.env.PETSTORE_REQUIRE_SERVICES === '1') {
    throw new Error(`Redis is required (PETSTORE_REQUIRE_SERVICES=1) but does not answer at ${REDIS_URL}`)
  }
  return `Redis does not answer at ${REDIS_URL} (set TEST_REDIS_URL); start it to run these tests`
}

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'

/** A skip reason when PostgreSQL is absent and not required; false when the tests can run. */
export async function postgresSkipReason (): Promise<string | false> {
  if (await reachable(POSTGRES_ADMIN_URL)) return false
  if (process.env.PETSTORE_REQUIRE_SERVICES === '1') {
    throw new Error(`PostgreSQL is required (PETSTORE_REQUIRE_SERVICES=1) but does not answer at ${POSTGRES_ADMIN_URL}`)
  }
  return `PostgreSQL does not answer at ${POSTGRES_ADMIN_URL} (set TEST_POSTGRES_URL); start it to run these tests`
}

/** A fresh, empty database for one test, dropped afterwards; returns its URL. */
export async function createPostgresDatabase (t: Test): Promise<string> {
  const name = `petstore_test_${randomBytes(6).toString('hex')}`
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
  await admin.connect()
  await admin.query(`create database ${name}`)
  await admin.end()
  // `with (force)` ends any connection a failed test left open.
  t.teardown(async () => {
    const cleanup = new pg.Client({ connectionString: POSTGRES_ADMIN_URL })
    await cleanup.connect()
    await cleanup.query(`drop database if exists ${name} with (force)`)
    await cleanup.end()
  })
  const url = new URL(POSTGRES_ADMIN_URL)
  url.pathname = `/${name}`
  return url.toString()
}
