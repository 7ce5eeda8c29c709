/**
 * The key for webhook secrets against the database, on whichever database this run tests:
 * a start with another key, or with the key file gone, over sealed secrets is refused,
 * saying how to recover (and makes no key file); a fresh database makes its key file as
 * before. A secret the service cannot open (sealed with another key, altered) fails its
 * delivery at once, `secret_unreadable`, logged once; a rotation over it keeps no previous
 * secret. The key file and the unit cases: secrets-key.test.ts.
 */
import { existsSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { Webhook } from 'standardwebhooks'
import { AUTH, build, JSON_HEADERS, TEST_DATABASE, TEST_SECRETS_KEY, testDatabaseUrl } from '../../helpers/app.ts'
import { captureLog } from '../../helpers/log.ts'
import { tempDir } from '../../helpers/process.ts'
import { startReceiver, type Receiver } from '../../helpers/receiver.ts'
import { until } from '../../helpers/until.ts'
import type { AppOptions } from '../../../src/app.ts'
import { parseNetworks } from '../../../src/config/values.ts'
import { sealingKeyIds } from '../../../src/features/webhooks/endpoints.ts'
import { newSecretsKey, sealSecret, secretsKeyFromText } from '../../../src/features/webhooks/sealing.ts'

const LOCAL = parseNetworks('127.0.0.0/8')
const TEST_KEY_ID = secretsKeyFromText(TEST_SECRETS_KEY, 'test').id

/** A database that outlives an app, for a restart: a SQLite file, or a PostgreSQL database. */
async function lastingDatabase (t: Test): Promise<string> {
  return TEST_DATABASE === 'sqlite' ? join(tempDir(t), 'petstore.db') : testDatabaseUrl(t)
}

type Webhooks = NonNullable<AppOptions['webhooks']>

async function service (t: Test, url: string, webhooks: Partial<Webhooks> = {}, options: Partial<AppOptions> = {}) {
  return build(t, { ...options, database: { url }, webhooks: { allowedNetworks: LOCAL, retryDelaysMs: [20, 20, 20], pollIntervalMs: 20, ...webhooks } })
}

async function subscribe (app: FastifyInstance, url: string): Promise<{ id: number, secret: string }> {
  const res = await app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: JSON_HEADERS, payload: { url, events: ['*'] } })
  if (res.statusCode !== 201) throw new Error(`could not add the endpoint: ${res.body}`)
  return res.json()
}

async function addPet (app: FastifyInstance) {
  const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1, status: 'available' } })
  if (res.statusCode !== 201) throw new Error(res.body)
}

async function deliveries (app: FastifyInstance, endpointId: number) {
  return (await app.inject({ url: `/v1/webhook-endpoints/${endpointId}/deliveries?limit=100`, headers: AUTH })).json() as Array<Record<string, any>>
}

/** Stores, as the endpoint's secret, one sealed with a key this service does not have. */
async function sealWithAnotherKey (app: FastifyInstance, endpointId: number) {
  await app.db.updateTable('webhook_endpoints').set({ secret: sealSecret(newSecretsKey().key, 'whsec_c2VhbGVkIHdpdGggYW5vdGhlciBrZXk=') })
    .where('id', '=', endpointId).execute()
}

/** The first delivery a receiver got, verified with `secret` by the reference library. */
function verifiedWith (receiver: Receiver, secret: string) {
  const { headers, body } = receiver.received[0]!
  return new Webhook(secret).verify(body, headers as Record<string, string>) as Record<string, unknown>
}

const recovery = (under: string) => 'or, if that key is lost, run `npm run webhooks -- rotate-secrets --all` with the same settings: ' +
  `it gives every endpoint a new secret, sealed with ${under}, to hand to its receiver`

t.test('a start with another WEBHOOK_SECRETS_KEY over sealed secrets is refused, naming it and the way back', async (t) => {
  const url = await lastingDatabase(t)
  const first = await service(t, url)
  await subscribe(first, 'http://127.0.0.1:9/hooks')
  await first.close()
  const { key, text } = newSecretsKey()
  await t.rejects(service(t, url, { secretsKey: text }), {
    message: `WEBHOOK_SECRETS_KEY holds the key ${key.id}, but the webhook secrets in the database were sealed with the key ${TEST_KEY_ID}: ` +
      `set WEBHOOK_SECRETS_KEY back to that key, on every instance, ${recovery(`the key ${key.id}`)}`
  })
  const again = await service(t, url)
  t.equal((await again.inject({ url: '/v1/webhook-endpoints', headers: AUTH })).json().length, 1, 'the key they were sealed with starts')
})

t.test('the start checks the current secrets and the previous ones that still sign, not those expired', async (t) => {
  const url = await lastingDatabase(t)
  const first = await service(t, url)
  const endpoint = await subscribe(first, 'http://127.0.0.1:9/hooks')
  await subscribe(first, 'http://127.0.0.1:9/other')
  const other = newSecretsKey().key
  const expires = new Date(Date.now() + 3_600_000)
  await first.db.updateTable('webhook_endpoints').set({ previous_secret: sealSecret(other, 'whsec_b2xk'), previous_secret_expires_at: expires.toISOString() })
    .where('id', '=', endpoint.id).execute()
  t.same(await sealingKeyIds(first.db, new Date()), [TEST_KEY_ID, other.id].sort(), 'one id a key')
  t.same(await sealingKeyIds(first.db, new Date(expires.getTime() + 1)), [TEST_KEY_ID], 'an expired previous secret is never opened')
  await first.close()
  await t.rejects(service(t, url), { message: new RegExp(`^WEBHOOK_SECRETS_KEY holds the key ${TEST_KEY_ID}, but the webhook secrets in the database were sealed with the key ${other.id}: `) })
})

t.test('a key file gone while sealed secrets remain stops the start, and no new one is made', async (t) => {
  const url = await lastingDatabase(t)
  const file = join(tempDir(t), 'webhook-secrets.key')
  const keyFile = { secretsKey: undefined, secretsKeyFile: file }
  const first = await service(t, url, keyFile)
  await subscribe(first, 'http://127.0.0.1:9/hooks')
  await first.close()
  rmSync(file)
  await t.rejects(service(t, url, keyFile), {
    message: new RegExp(`^the webhook secrets key file ${file} is missing, but the webhook secrets in the database were sealed with the key [0-9a-f]{16}, so no new key file is made: `)
  })
  t.notOk(existsSync(file), 'no key file made')
})

t.test('a fresh database makes its key file at the first secret, and starts again with it', async (t) => {
  const url = await lastingDatabase(t)
  const file = join(tempDir(t), 'webhook-secrets.key')
  const keyFile = { secretsKey: undefined, secretsKeyFile: file }
  const first = await service(t, url, keyFile)
  t.notOk(existsSync(file), 'none before a secret is sealed')
  const receiver = await startReceiver(t)
  const endpoint = await subscribe(first, receiver.url)
  t.ok(existsSync(file), 'made with the first')
  await first.close()
  const again = await service(t, url, keyFile)
  await addPet(again)
  await until(() => receiver.received.length === 1, 'the delivery after the restart')
  t.match(verifiedWith(receiver, endpoint.secret), { type: 'pet.created' }, 'signed with the secret sealed before the restart')
})

t.test('a delivery whose secret cannot be opened fails at once, secret_unreadable, logged once, never pending', async (t) => {
  const log = captureLog()
  const url = await lastingDatabase(t)
  const app = await service(t, url, {}, { logger: { level: 'warn', stream: log.stream } })
  const receiver = await startReceiver(t)
  const endpoint = await subscribe(app, receiver.url)
  await sealWithAnotherKey(app, endpoint.id)
  await addPet(app)
  await until(async () => (await deliveries(app, endpoint.id))[0]?.outcome === 'failed', 'the failure')
  // Time for a retry, had one been scheduled (the retries here come after 20 ms).
  await new Promise((resolve) => setTimeout(resolve, 300))
  await app.webhooks.settled()
  const attempts = await deliveries(app, endpoint.id)
  t.same(attempts.map(({ attempt, outcome, error, nextAttemptAt }) => ({ attempt, outcome, error, nextAttemptAt })),
    [{ attempt: 1, outcome: 'failed', error: 'secret_unreadable', nextAttemptAt: undefined }], 'failed, no retry')
  t.equal(receiver.received.length, 0, 'nothing sent')
  const lines = log.lines.filter((line) => line.error === 'secret_unreadable')
  t.equal(lines.length, 1, 'logged once')
  t.match(lines[0], {
    level: 50,
    webhookEndpointId: String(endpoint.id),
    attempt: 1,
    msg: 'webhook delivery failed: the endpoint\'s secret cannot be opened with this service\'s key; rotate the secret, then recover what it missed',
    err: { message: new RegExp(`^a webhook secret was sealed with the key [0-9a-f]{16}, and this service has the key ${TEST_KEY_ID}`) }
  })
})

t.test('a rotation over a secret that cannot be opened keeps no previous secret', async (t) => {
  const url = await lastingDatabase(t)
  const app = await service(t, url)
  const receiver = await startReceiver(t)
  const endpoint = await subscribe(app, receiver.url)
  await sealWithAnotherKey(app, endpoint.id)
  const res = await app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, headers: JSON_HEADERS, payload: { graceSeconds: 3600 } })
  t.equal(res.statusCode, 200)
  const { secret, ...rest } = res.json()
  t.same(rest, {}, 'no previousSecretExpiresAt')
  const row = await app.db.selectFrom('webhook_endpoints').select(['previous_secret', 'previous_secret_expires_at']).where('id', '=', endpoint.id).executeTakeFirstOrThrow()
  t.same(row, { previous_secret: null, previous_secret_expires_at: null })
  await addPet(app)
  await until(() => receiver.received.length === 1, 'the delivery')
  t.match(receiver.received[0]!.headers['webhook-signature'], /^v1,[A-Za-z0-9+/]{43}=$/, 'one signature')
  t.match(verifiedWith(receiver, secret), { type: 'pet.created' }, 'the new secret\'s')

  const readable = await app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, headers: JSON_HEADERS, payload: { graceSeconds: 3600 } })
  t.ok(readable.json().previousSecretExpiresAt, 'a secret that opens is kept for the grace, as before')
})
