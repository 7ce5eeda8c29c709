/**
 * Crash safety: the real server on a file database, creates streaming in from several
 * connections, SIGKILL at several points. After each restart every create that got a 201
 * is there with its id, ids never repeat, and the database passes its integrity check.
 * And a create killed between its commit and its answer is answered, on retry with its
 * Idempotency-Key, from what was stored, without a second record.
 */
import { once } from 'node:events'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import t from 'tap'
import { startServer, streamCreates, tempDir } from '../helpers/process.ts'

const KEY = 'crash-test-key-not-a-real-secret'

t.test('SIGKILL mid-stream loses no acknowledged create and never reuses an id', async (t) => {
  const database = join(tempDir(t), 'petstore.db')
  const acknowledged = new Map<number, string>()
  let highestBefore = 0

  // Kill after a few, some and many acknowledged creates.
  for (const [round, killAfter] of [5, 40, 150].entries()) {
    const server = await startServer(t, { DATABASE_URL: database, PETSTORE_API_KEYS: KEY, RATE_LIMIT_MAX: '0', LOG_LEVEL: 'warn' })
    let killed = false
    const stream = streamCreates(server.port, KEY, {
      prefix: `k${round}-`,
      onOutcome: () => {
        if (!killed && stream.outcomes.filter((o) => o.status === 201).length >= killAfter) {
          killed = true
          server.child.kill('SIGKILL')
          stream.stop()
        }
      }
    })
    await stream.done
    const { outcomes } = stream
    const [, signal] = await once(server.child, 'exit')
    t.equal(signal, 'SIGKILL', `round ${round}: killed`)

    const created = outcomes.filter((outcome) => outcome.status === 201).map((outcome) => JSON.parse(outcome.body!) as { id: number, name: string })
    t.ok(created.length >= killAfter, `round ${round}: ${created.length} creates acknowledged before the kill`)
    t.ok(created.every((pet) => pet.id > highestBefore), `round ${round}: every new id is above ${highestBefore}, the highest before the restart`)
    for (const pet of created) {
      t.notOk(acknowledged.has(pet.id), `id ${pet.id} is new`)
      acknowledged.set(pet.id, pet.name)
    }
    t.same(outcomes.filter((outcome) => outcome.status !== undefined && outcome.status !== 201), [], 'every answer was a 201')

    const sqlite = new SQLite(database)
    t.equal(sqlite.pragma('integrity_check', { simple: true }), 'ok', `round ${round}: integrity_check`)
    const stored = new Map((sqlite.prepare('select id, name from pets').all() as Array<{ id: number, name: string }>).map((row) => [row.id, row.name]))
    sqlite.close()
    const lost = [...acknowledged].filter(([id, name]) => stored.get(id) !== name)
    t.same(lost, [], `round ${round}: all ${acknowledged.size} acknowledged creates are stored with their ids`)
    highestBefore = Math.max(...stored.keys())
  }
})

t.test('killed after a create commits and before its answer is sent, a retry gets the stored answer', async (t) => {
  const database = join(tempDir(t), 'petstore.db')
  const fixture = new URL('../fixtures/die-after-create.mjs', import.meta.url).pathname
  const body = JSON.stringify({ name: 'Lost answer', categoryId: 1 })
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': 'die-after-commit' }

  const doomed = await startServer(t, { DATABASE_URL: database, PETSTORE_API_KEYS: KEY, LOG_LEVEL: 'warn', NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import=${fixture}` })
  const lost = await fetch(`${doomed.base}/v1/pets`, { method: 'POST', headers, body }).then(() => 'answered', () => 'no answer')
  t.equal(lost, 'no answer', 'the client never heard back')
  t.equal((await once(doomed.child, 'exit'))[1], 'SIGKILL')
  const sqlite = new SQLite(database)
  t.equal((sqlite.prepare('select count(*) as n from pets').get() as { n: number }).n, 1, 'the pet was committed')
  t.equal((sqlite.prepare('select count(*) as n from idempotency_keys').get() as { n: number }).n, 1, 'with its answer, in the same transaction')
  sqlite.close()

  const restarted = await startServer(t, { DATABASE_URL: database, PETSTORE_API_KEYS: KEY, LOG_LEVEL: 'warn' })
  const retry = await fetch(`${restarted.base}/v1/pets`, { method: 'POST', headers, body })
  t.equal(retry.status, 201)
  t.equal(retry.headers.get('idempotent-replayed'), 'true')
  t.equal(await retry.text(), '{"id":1,"name":"Lost answer","categoryId":1}', 'the answer the first request would have had')
  const listed = await fetch(`${restarted.base}/v1/pets`, { headers: { authorization: `Bearer ${KEY}` } })
  t.equal((await listed.json() as unknown[]).length, 1, 'and no second record')
})
