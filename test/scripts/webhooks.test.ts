/**
 * `npm run webhooks -- rotate-secrets --all` as run, on whichever database this run tests:
 * the way back when the key that sealed the webhook secrets is lost. The service refuses to
 * start with another key; the command, with the new key, gives every endpoint a new secret
 * and prints each; the service then starts and signs with them. And a key file lost: the
 * command makes a new one. The command line's cases, in-process:
 * test/features/webhooks/command.test.ts.
 */
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { Webhook } from 'standardwebhooks'
import { build, JSON_HEADERS, TEST_DATABASE, TEST_SECRETS_KEY, testDatabaseUrl } from '../helpers/app.ts'
import { runScript, scriptResult, tempDir } from '../helpers/process.ts'
import { startReceiver, type Receiver } from '../helpers/receiver.ts'
import { until } from '../helpers/until.ts'
import type { AppOptions } from '../../src/app.ts'
import { parseNetworks } from '../../src/config/values.ts'
import { newSecretsKey, secretsKeyFromText } from '../../src/features/webhooks/sealing.ts'

const LOCAL = parseNetworks('127.0.0.0/8')

/** A database that outlives an app, and is the command's too: a SQLite file, or a PostgreSQL database. */
async function lastingDatabase (t: Test): Promise<string> {
  return TEST_DATABASE === 'sqlite' ? join(tempDir(t), 'petstore.db') : testDatabaseUrl(t)
}

async function service (t: Test, url: string, webhooks: Partial<NonNullable<AppOptions['webhooks']>>) {
  return build(t, { database: { url }, webhooks: { allowedNetworks: LOCAL, pollIntervalMs: 20, ...webhooks } })
}

async function subscribe (app: FastifyInstance, url: string): Promise<{ id: number, secret: string }> {
  const res = await app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: JSON_HEADERS, payload: { url, events: ['*'] } })
  if (res.statusCode !== 201) throw new Error(`could not add the endpoint: ${res.body}`)
  return res.json()
}

/** `npm run webhooks -- rotate-secrets --all`: each endpoint's new secret, by its id, from what it printed. */
async function rotateAll (env: Record<string, string>): Promise<{ stdout: string, secrets: Map<number, string> }> {
  const { stdout } = await runScript('scripts/webhooks.ts', ['rotate-secrets', '--all'], env)
  const secrets = new Map([...stdout.matchAll(/^ {2}(\d+)\s+\S+\s+(whsec_\S+)$/gm)].map((match) => [Number(match[1]), match[2]!]))
  return { stdout, secrets }
}

/** The first delivery a receiver got, verified with `secret` by the reference library. */
function verifiedWith (receiver: Receiver, secret: string) {
  const { headers, body } = receiver.received[0]!
  return new Webhook(secret).verify(body, headers as Record<string, string>) as Record<string, unknown>
}

t.test('another key is refused at start; rotate-secrets --all with it gives every endpoint a new secret, and the service delivers with them', async (t) => {
  const url = await lastingDatabase(t)
  const before = await service(t, url, {})
  const receivers = [await startReceiver(t), await startReceiver(t)]
  const endpoints = [await subscribe(before, receivers[0]!.url), await subscribe(before, receivers[1]!.url)]
  await before.close()

  const { key, text } = newSecretsKey()
  const refused = await scriptResult('src/server.ts', [], { DATABASE_URL: url, WEBHOOK_SECRETS_KEY: text, HOST: '127.0.0.1', PORT: '0' })
  t.equal(refused.code, 1)
  t.equal(refused.stderr, `Cannot start: WEBHOOK_SECRETS_KEY holds the key ${key.id}, but the webhook secrets in the database were sealed with the key ` +
    `${secretsKeyFromText(TEST_SECRETS_KEY, 'test').id}: set WEBHOOK_SECRETS_KEY back to that key, on every instance, or, if that key is lost, ` +
    'run `npm run webhooks -- rotate-secrets --all` with the same settings: it gives every endpoint a new secret, ' +
    `sealed with the key ${key.id}, to hand to its receiver\n`, 'the start names the setting and the way back')

  const { stdout, secrets } = await rotateAll({ DATABASE_URL: url, WEBHOOK_SECRETS_KEY: text })
  t.ok(stdout.startsWith(`Gave every webhook endpoint (2) a new secret, sealed with the key ${key.id} (WEBHOOK_SECRETS_KEY); the old secrets stop now. ` +
    'Each is shown this once; hand each to its endpoint\'s receiver:\n\n'), stdout)
  t.same([...secrets.keys()], endpoints.map(({ id }) => id), 'every endpoint, by id')
  for (const [index, endpoint] of endpoints.entries()) t.match(stdout, `  ${endpoint.id}  ${receivers[index]!.url}  ${secrets.get(endpoint.id)}`)

  const after = await service(t, url, { secretsKey: text })
  const res = await after.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1, status: 'available' } })
  t.equal(res.statusCode, 201)
  await until(() => receivers.every((receiver) => receiver.received.length === 1), 'a delivery to each endpoint')
  for (const [index, endpoint] of endpoints.entries()) {
    t.match(verifiedWith(receivers[index]!, secrets.get(endpoint.id)!), { type: 'pet.created' }, 'signed with its new secret')
    t.throws(() => verifiedWith(receivers[index]!, endpoint.secret), 'and not with the old one: no grace')
  }
})

t.test('a key file lost: rotate-secrets --all makes a new one, which the service then starts with', async (t) => {
  const url = await lastingDatabase(t)
  const file = join(tempDir(t), 'webhook-secrets.key')
  const keyFile = { secretsKey: undefined, secretsKeyFile: file }
  const before = await service(t, url, keyFile)
  const receiver = await startReceiver(t)
  const endpoint = await subscribe(before, receiver.url)
  await before.close()
  rmSync(file)

  const { stdout, secrets } = await rotateAll({ DATABASE_URL: url, WEBHOOK_SECRETS_KEY_FILE: file })
  t.match(stdout, `(the key file ${file}, made now)`)
  t.ok(existsSync(file))
  const after = await service(t, url, keyFile)
  await after.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1, status: 'available' } })
  await until(() => receiver.received.length === 1, 'the delivery')
  t.match(verifiedWith(receiver, secrets.get(endpoint.id)!), { type: 'pet.created' })
})
