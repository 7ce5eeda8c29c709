/**
 * Graceful shutdown of the real process under load: SIGTERM mid-stream, then every
 * request the server had received got its whole answer, every 201 is in the database,
 * and the database was closed cleanly.
 */
import { once } from 'node:events'
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import t from 'tap'
import { startServer, streamCreates, tempDir } from '../helpers/process.ts'
import { until } from '../helpers/until.ts'

const KEY = 'shutdown-test-key-not-a-secret-0'

t.test('SIGTERM under load loses nothing and cuts off no request it received', async (t) => {
  const database = join(tempDir(t), 'petstore.db')
  const server = await startServer(t, { DATABASE_URL: database, PETSTORE_API_KEYS: KEY, RATE_LIMIT_MAX: '0', LOG_LEVEL: 'debug' })
  const { outcomes, stop } = streamCreates(server.port, KEY, { connections: 6, endsOn: (error) => error === 'ECONNREFUSED' })
  // Let the load build up, then signal in the middle of it.
  await until(() => outcomes.filter((outcome) => outcome.status === 201).length >= 60, '60 creates acknowledged')
  server.child.kill('SIGTERM')
  const [code] = await once(server.child, 'exit')
  await stop()
  t.equal(code, 0, 'the process exits 0')

  const created = outcomes.filter((outcome) => outcome.status === 201)
  t.ok(created.length >= 60, `${created.length} creates acknowledged`)
  const unexpected = outcomes.filter((outcome) => outcome.status !== undefined && outcome.status !== 201)
  t.same(unexpected, [], 'every answer is a 201: requests on open connections are still served while draining')

  // Which requests the server saw, from its own log lines.
  const received = new Set(server.output().split('\n').flatMap((line) => {
    try {
      const entry = JSON.parse(line)
      return entry.msg === 'incoming request' ? [entry.reqId as string] : []
    } catch { return [] }
  }))
  const cutOff = outcomes.filter((outcome) => outcome.error !== undefined && received.has(outcome.requestId))
  t.same(cutOff, [], 'no request the server received was cut off')
  t.ok(outcomes.every((outcome) => outcome.error === undefined || ['ECONNREFUSED', 'ECONNRESET', 'socket hang up', 'EPIPE'].includes(outcome.error)),
    'failures are only refused or reset connections of requests never received')

  t.notOk(existsSync(`${database}-wal`) && statSync(`${database}-wal`).size > 0, 'the WAL was checkpointed on close')
  const sqlite = new SQLite(database, { readonly: true })
  t.teardown(() => sqlite.close())
  t.equal(sqlite.pragma('integrity_check', { simple: true }), 'ok')
  const rows = sqlite.prepare('select id, name from pets').all() as Array<{ id: number, name: string }>
  const stored = new Map(rows.map((row) => [row.id, row.name]))
  const missing = created.filter((outcome) => {
    const pet = JSON.parse(outcome.body!)
    return stored.get(pet.id) !== outcome.requestId
  })
  t.same(missing, [], 'every acknowledged create is in the database with its id')
})
