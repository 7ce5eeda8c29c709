/**
 * Webhooks from the outside: the service as `npm start` runs it, a receiver that verifies
 * every request with the reference library `standardwebhooks` (a request it cannot verify
 * fails the test), creates streaming in, and a SIGKILL under load. Every acknowledged
 * create's event reaches the receiver, through the receiver's own failures; on SQLite
 * across a restart, on PostgreSQL with two instances, one of them killed. A URL on an
 * address the service may not call is refused, and that address never gets a request.
 */
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { Webhook } from 'standardwebhooks'
import { startServer, streamCreates, tempDir, type ServerProcess } from '../helpers/process.ts'
import { createPostgresDatabase, postgresSkipReason } from '../helpers/services.ts'
import { TEST_SECRETS_KEY } from '../helpers/app.ts'
import { until } from '../helpers/until.ts'

const KEY = 'webhooks-process-test-key-not-a-secret'
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
const ENV = {
  PETSTORE_API_KEYS: KEY,
  RATE_LIMIT_MAX: '0',
  LOG_LEVEL: 'error',
  WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
  WEBHOOK_RETRY_DELAYS: '50ms,50ms,50ms,50ms',
  WEBHOOK_TIMEOUT_MS: '1000',
  WEBHOOK_SECRETS_KEY: TEST_SECRETS_KEY
}

interface Delivered { type: string, data: { id: number, name: string } }

/**
 * A receiver on `host` that verifies each request with the secret it is given, keeps each
 * event by its id, and fails the first attempt at every fifth event (a 500), so retries
 * are part of every run.
 */
async function receiver (t: Test, host = '127.0.0.1') {
  let webhook: Webhook | undefined
  const events = new Map<string, Delivered>()
  const refused: string[] = []
  const failedOnce = new Set<string>()
  let requests = 0
  const server = createServer((request, response) => {
    requests++
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8')
      let event: Delivered & { id: string }
      try {
        event = webhook!.verify(body, request.headers as Record<string, string>) as Delivered & { id: string }
      } catch (error) {
        refused.push(String(error))
        response.writeHead(400).end()
        return
      }
      if (events.size % 5 === 0 && !events.has(event.id) && !failedOnce.has(event.id)) {
        failedOnce.add(event.id)
        response.writeHead(500).end()
        return
      }
      events.set(event.id, event)
      response.writeHead(204).end()
    })
  })
  server.listen(0, host)
  await once(server, 'listening')
  t.teardown(() => {
    server.closeAllConnections()
    server.close()
  })
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}/hooks`,
    events,
    refused,
    get requests () { return requests },
    verifyWith (secret: string) { webhook = new Webhook(secret) }
  }
}

async function addEndpoint (base: string, url: string): Promise<Response> {
  return fetch(`${base}/v1/webhook-endpoints`, { method: 'POST', headers, body: JSON.stringify({ url, events: ['pet.created'] }) })
}

/** Streams creates to `server` until `count` are acknowledged, killing it then; the pets acknowledged. */
async function createUntilKilled (t: Test, server: ServerProcess, count: number, prefix: string) {
  let killed = false
  const stream = streamCreates(server.port, KEY, {
    prefix,
    onOutcome: () => {
      if (!killed && stream.outcomes.filter((outcome) => outcome.status === 201).length >= count) {
        killed = true
        server.child.kill('SIGKILL')
        stream.stop()
      }
    }
  })
  await stream.done
  const [, signal] = await once(server.child, 'exit')
  t.equal(signal, 'SIGKILL', 'killed under load')
  return stream.outcomes.filter((outcome) => outcome.status === 201).map((outcome) => JSON.parse(outcome.body!) as { id: number })
}

function delivered (events: Map<string, Delivered>): number[] {
  return [...events.values()].filter((event) => event.type === 'pet.created').map((event) => event.data.id)
}

t.test('SQLite: every acknowledged create is delivered, verified, through receiver failures and a SIGKILL under load', { timeout: 120_000 }, async (t) => {
  const hooks = await receiver(t)
  const inside = await receiver(t, '127.0.0.2')
  const env = { ...ENV, DATABASE_URL: join(tempDir(t), 'petstore.db') }
  let server = await startServer(t, env, { built: true })

  const refused = await addEndpoint(server.base, inside.url)
  t.equal(refused.status, 400)
  t.same(await refused.json(), {
    code: 'invalid_webhook_url',
    message: 'body/url is not a URL webhooks can go to: its host 127.0.0.2 is at 127.0.0.2, a loopback address, not a public one',
    status: 400
  })
  const added = await addEndpoint(server.base, hooks.url)
  t.equal(added.status, 201)
  hooks.verifyWith((await added.json() as { secret: string }).secret)

  const acknowledged = await createUntilKilled(t, server, 150, 'first-')
  server = await startServer(t, env, { built: true })
  for (let i = 0; i < 20; i++) {
    const res = await fetch(`${server.base}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `after ${i}`, categoryId: 1 }) })
    t.equal(res.status, 201)
    acknowledged.push(await res.json() as { id: number })
  }
  const expected = new Set(acknowledged.map((pet) => pet.id))
  await until(() => [...expected].every((id) => delivered(hooks.events).includes(id)), `the events of all ${expected.size} acknowledged creates`, 60_000)
  t.same(hooks.refused, [], 'every request verified')
  t.equal(inside.requests, 0, 'the refused address never got a request')
  t.ok(delivered(hooks.events).length >= expected.size, `${delivered(hooks.events).length} pet.created events for ${expected.size} acknowledged creates`)
})

const skip = await postgresSkipReason()

t.test('PostgreSQL, two instances: every acknowledged create is delivered once one instance is killed under load', { skip, timeout: 120_000 }, async (t) => {
  const hooks = await receiver(t)
  const env = { ...ENV, DATABASE_URL: await createPostgresDatabase(t) }
  // One after the other: the first migrates the database.
  const first = await startServer(t, env, { built: true })
  const second = await startServer(t, env, { built: true })
  const added = await addEndpoint(first.base, hooks.url)
  t.equal(added.status, 201)
  hooks.verifyWith((await added.json() as { secret: string }).secret)

  // The first keeps going while the second is killed.
  const steady = streamCreates(first.port, KEY, { prefix: 'steady-', connections: 2 })
  const killed = await createUntilKilled(t, second, 150, 'killed-')
  await steady.stop()
  const acknowledged = [...killed, ...steady.outcomes.filter((outcome) => outcome.status === 201).map((outcome) => JSON.parse(outcome.body!) as { id: number })]
  const expected = new Set(acknowledged.map((pet) => pet.id))
  // The killed instance's claims pass within WEBHOOK_TIMEOUT_MS and 15 s; the other takes them over.
  await until(() => [...expected].every((id) => delivered(hooks.events).includes(id)), `the events of all ${expected.size} acknowledged creates`, 60_000)
  t.same(hooks.refused, [], 'every request verified')
  const log = await fetch(`${first.base}/v1/webhook-endpoints/1/deliveries?limit=100`, { headers })
  t.equal(log.status, 200)
  t.ok((await log.json() as unknown[]).length > 0, 'the log shows the attempts')
})
