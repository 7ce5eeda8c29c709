/**
 * Optional services (Redis, PostgreSQL, NATS with JetStream, RabbitMQ) for the tests that need a real one. On a laptop without the
 * service those tests are skipped with a message saying so; CI sets
 * PETSTORE_REQUIRE_SERVICES=1, which turns a missing service into a failure.
 */
import { randomBytes } from 'node:crypto'
import { accessSync, constants } from 'node:fs'
import { delimiter, join } from 'node:path'
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
const DEFAULT_PORTS: Record<string, number> = { 'redis:': 6379, 'postgres:': 5432, 'nats:': 4222, 'amqp:': 5672 }

function reachable (url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port || DEFAULT_PORTS[new URL(url).protocol]), hostname)
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

export const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222'
export const RABBITMQ_URL = process.env.TEST_RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672'

/** A skip reason when the broker at `url` is absent and not required; false when the tests can run. */
async function brokerSkipReason (name: string, url: string, variable: string): Promise<string | false> {
  if (await reachable(url)) return false
  const where = new URL(url).host
  if (process.env.PETSTORE_REQUIRE_SERVICES === '1') {
    throw new Error(`${name} is required (PETSTORE_REQUIRE_SERVICES=1) but does not answer at ${where}`)
  }
  return `${name} does not answer at ${where} (set ${variable}); start it to run these tests`
}

/** A skip reason when NATS (with JetStream) is absent and not required. */
export const natsSkipReason = () => brokerSkipReason('NATS', NATS_URL, 'TEST_NATS_URL')

/** The first of `paths` that is an executable file. */
function firstProgram (paths: readonly string[]): string | undefined {
  return paths.find((path) => {
    try {
      accessSync(path, constants.X_OK)
      return true
    } catch {
      return false
    }
  })
}

const onPath = (name: string) => (process.env.PATH ?? '').split(delimiter).filter((dir) => dir !== '').map((dir) => join(dir, name))

/**
 * The `nats-server` program, for the tests that run a NATS server of their own (to restart
 * it): `TEST_NATS_SERVER`, or found on PATH or in /usr/sbin, where Debian's package puts it.
 */
export function natsServerProgram (): string | undefined {
  return firstProgram(process.env.TEST_NATS_SERVER !== undefined ? [process.env.TEST_NATS_SERVER] : [...onPath('nats-server'), '/usr/sbin/nats-server'])
}

/**
 * RabbitMQ's `rabbitmq-server` script, for the tests that run a RabbitMQ node of their own:
 * `TEST_RABBITMQ_SERVER`, or Debian's in /usr/lib/rabbitmq/bin (the one in /usr/sbin runs
 * the node as the rabbitmq user, which cannot write the test's folder), or found on PATH.
 */
export function rabbitMqServerProgram (): string | undefined {
  return firstProgram(process.env.TEST_RABBITMQ_SERVER !== undefined
    ? [process.env.TEST_RABBITMQ_SERVER]
    : ['/usr/lib/rabbitmq/bin/rabbitmq-server', ...onPath('rabbitmq-server')])
}

/** A skip reason when `program` is not found and none is required. */
function programSkipReason (name: string, program: string | undefined, where: string, variable: string): string | false {
  if (program !== undefined) return false
  if (process.env.PETSTORE_REQUIRE_SERVICES === '1') {
    throw new Error(`${name} is required (PETSTORE_REQUIRE_SERVICES=1) but is not ${where} (set ${variable})`)
  }
  return `no ${name} program ${where} (set ${variable}); install it to run these tests`
}

/** A skip reason when no `nats-server` program is found and none is required. */
export const natsServerSkipReason = () => programSkipReason('nats-server', natsServerProgram(), 'on PATH nor in /usr/sbin', 'TEST_NATS_SERVER')

/** A skip reason when no `rabbitmq-server` program is found and none is required. */
export const rabbitMqServerSkipReason = () =>
  programSkipReason('rabbitmq-server', rabbitMqServerProgram(), 'in /usr/lib/rabbitmq/bin nor on PATH', 'TEST_RABBITMQ_SERVER')

/** A skip reason when RabbitMQ is absent and not required. */
export const rabbitMqSkipReason = () => brokerSkipReason('RabbitMQ', RABBITMQ_URL, 'TEST_RABBITMQ_URL')

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
