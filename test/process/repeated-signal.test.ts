/**
 * A signal that arrives twice while the service drains: `npm start` passes SIGTERM and
 * SIGINT on to the service, so a signal sent to the whole process group (a terminal's
 * Ctrl-C, a service manager) reaches it once directly and once through npm. The repeat is
 * ignored and the drain goes on; a different signal still ends the process at once.
 */
import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import t, { type Test } from 'tap'
import { until } from '../helpers/until.ts'
import { startServer, tempDir } from '../helpers/process.ts'

const KEY = 'repeated-signal-key-not-a-secret'
const BODY = JSON.stringify({ name: 'held', categoryId: 1 })

/** A create whose body is half sent: the server has the request and waits for the rest, so its drain cannot end. */
async function heldCreate (port: number): Promise<{ socket: Socket, finish: () => Promise<string> }> {
  const socket = connect(port, '127.0.0.1')
  await once(socket, 'connect')
  socket.write(`POST /v1/pets HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${KEY}\r\n` +
    `Content-Type: application/json\r\nContent-Length: ${BODY.length}\r\nX-Request-Id: held\r\n\r\n${BODY.slice(0, 5)}`)
  let answer = ''
  socket.on('data', (chunk: Buffer) => { answer += chunk })
  // A process that ends may reset the connection; what it answered is what is checked.
  socket.on('error', () => {})
  const closed = new Promise((resolve) => socket.once('close', resolve))
  return {
    socket,
    finish: async () => {
      socket.end(BODY.slice(5))
      await closed
      return answer
    }
  }
}

async function drainingServer (t: Test, signal: NodeJS.Signals) {
  const database = join(tempDir(t), 'petstore.db')
  // No event-loop-delay shedding: on a busy test machine its 503 would hide what is checked.
  const server = await startServer(t, {
    DATABASE_URL: database, PETSTORE_API_KEYS: KEY, LOG_LEVEL: 'debug', SHUTDOWN_GRACE_MS: '60000', MAX_EVENT_LOOP_DELAY_MS: '0'
  })
  const held = await heldCreate(server.port)
  t.teardown(() => held.socket.destroy())
  await until(() => server.output().includes('"reqId":"held","req":'), 'the server to receive the held create')
  server.child.kill(signal)
  await until(() => server.output().includes('"msg":"shutting down"'), 'the drain to begin')
  return { server, held, database }
}

t.test('the same signal again while draining is ignored: the drain finishes and the process exits 0', async (t) => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    await t.test(signal, async (t) => {
      const { server, held, database } = await drainingServer(t, signal)
      const exit = once(server.child, 'exit')
      server.child.kill(signal)
      await until(() => server.output().includes('"msg":"already shutting down"') || server.child.exitCode !== null,
        'the repeated signal to be noted')
      if (!t.equal(server.child.exitCode, null, 'the repeated signal did not end the process')) return

      const answer = await held.finish()
      t.match(answer, /^HTTP\/1\.1 201 Created\r\n/, 'the request held across both signals is answered')
      t.same(await exit, [0, null], 'the process exits 0 once drained')
      const sqlite = new SQLite(database, { readonly: true })
      t.teardown(() => sqlite.close())
      t.same(sqlite.prepare('select name from pets').all(), [{ name: 'held' }], 'the create is stored')
    })
  }
})

t.test('a different signal while draining ends the process at once with 1', async (t) => {
  const { server, held } = await drainingServer(t, 'SIGTERM')
  const exit = once(server.child, 'exit')
  server.child.kill('SIGINT')
  t.same(await exit, [1, null], 'exit 1')
  t.match(server.output(), '"msg":"SIGINT while shutting down, exiting"', 'at once, not at the end of the grace period')
  held.socket.destroy()
})
