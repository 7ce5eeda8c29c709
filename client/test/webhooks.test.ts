/**
 * `verifyWebhook`: what Standard Webhooks' reference library signs, it accepts, from
 * `Headers` or a plain object, text or bytes; anything else it refuses with a
 * WebhookVerificationError that says why. The service's own signatures too, and the webhook
 * endpoints' operations end to end: an endpoint added, a delivery verified, the log paged.
 */
import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { verifyWebhook, WebhookVerificationError } from '../src/index.ts'
import { newWebhookSecret, webhookHeaders } from '../../src/features/webhooks/signature.ts'
import { parseNetworks } from '../../src/config/values.ts'
import { startReceiver } from '../../test/helpers/receiver.ts'
import { until } from '../../test/helpers/until.ts'
import { clientOf, collect, listening } from './server.ts'

const BODY = '{"id":"evt_AaIa3SWl6g0np3cTPiUXZw","type":"pet.created","timestamp":"2026-11-27T02:37:10.437Z","sequence":9007199254740993,"data":{"id":1,"name":"Rex","categoryId":9223372036854775807}}'
const ID = 'evt_AaIa3SWl6g0np3cTPiUXZw'

function signed (secret: string, at = new Date(), body = BODY) {
  const signature = new Webhook(secret).sign(ID, at, body)
  return { 'webhook-id': ID, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature }
}

t.test("the reference library's signature verifies, and the event comes back with its int64s exact", async (t) => {
  const secret = newWebhookSecret()
  const headers = signed(secret)
  const event = await verifyWebhook(secret, headers, BODY)
  t.equal(event.id, ID)
  t.equal(event.sequence, 9007199254740993n)
  t.equal((event.data as { categoryId: unknown }).categoryId, 9223372036854775807n)
  t.equal((await verifyWebhook(secret, new Headers(headers), new TextEncoder().encode(BODY))).id, ID, 'Headers, and the body as bytes')
  const shouting = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toUpperCase(), [value]]))
  t.equal((await verifyWebhook(secret, shouting, BODY)).id, ID, 'names in any case, values as arrays')
  t.equal((await verifyWebhook(secret.slice('whsec_'.length), headers, BODY)).id, ID, 'the secret without its prefix')
  t.equal((await verifyWebhook(secret, webhookHeaders([secret], ID, new Date(), BODY), BODY)).id, ID, "the service's own signature")
})

t.test('during a rotation either of the two signatures is enough', async (t) => {
  const [next, old] = [newWebhookSecret(), newWebhookSecret()]
  const headers = webhookHeaders([next, old], ID, new Date(), BODY)
  for (const secret of [next, old]) t.equal((await verifyWebhook(secret, headers, BODY)).id, ID)
})

t.test('anything else is refused, saying why', async (t) => {
  const secret = newWebhookSecret()
  const now = new Date()
  const refused = async (headers: Record<string, string>, body = BODY, key = secret) => {
    const error = await verifyWebhook(key, headers, body).then(() => undefined, (error: unknown) => error)
    t.ok(error instanceof WebhookVerificationError, 'a WebhookVerificationError')
    return (error as Error).message
  }
  const headers = signed(secret, now)
  t.equal(await refused(headers, BODY.replace('Rex', 'Max')), 'no signature matches the secret', 'another body')
  t.equal(await refused(headers, BODY, newWebhookSecret()), 'no signature matches the secret', 'another secret')
  t.equal(await refused({ ...headers, 'webhook-id': 'evt_other' }), 'no signature matches the secret', 'another id')
  t.equal(await refused({ ...headers, 'webhook-signature': headers['webhook-signature'].replace('v1,', 'v2,') }), 'no signature matches the secret', 'no v1 entry')
  t.equal(await refused(signed(secret, new Date(now.getTime() - 6 * 60 * 1000))), 'webhook-timestamp is too old')
  t.equal(await refused(signed(secret, new Date(now.getTime() + 6 * 60 * 1000))), 'webhook-timestamp is in the future')
  t.equal(await refused({ ...headers, 'webhook-timestamp': '1.5e9' }), 'webhook-timestamp is not unix seconds')
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    const { [name]: _left, ...rest } = headers as Record<string, string>
    t.equal(await refused(rest), `no ${name} header`)
  }
  t.equal(await refused(headers, BODY, 'whsec_%%%'), 'the secret is not whsec_ and base64')
  // A tolerance of one's own choosing.
  const old = signed(secret, new Date(now.getTime() - 6 * 60 * 1000))
  t.equal((await verifyWebhook(secret, old, BODY, { toleranceSeconds: 600 })).id, ID)
  t.equal((await verifyWebhook(secret, old, BODY, { now: new Date(now.getTime() - 6 * 60 * 1000) })).id, ID)
})

t.test('the client adds an endpoint, and verifies what the service delivers to it; the log pages through the client', async (t) => {
  const { baseUrl } = await listening(t, { webhooks: { allowedNetworks: parseNetworks('127.0.0.0/8'), pollIntervalMs: 20 } })
  const client = clientOf(baseUrl)
  const receiver = await startReceiver(t)
  const endpoint = await client.createWebhookEndpoint({ url: receiver.url, events: ['pet.created'] })
  t.match(endpoint.secret, /^whsec_/)
  t.equal(endpoint.enabled, true)
  const pet = await client.createPet({ name: 'Rex', categoryId: 9007199254740993n })
  await until(() => receiver.received.length === 1, 'the delivery')
  const { headers, body } = receiver.received[0]!
  const event = await verifyWebhook(endpoint.secret, headers as Record<string, string>, body)
  t.equal(event.type, 'pet.created')
  t.same(event.data, pet, 'the event holds the pet as created, its int64s exact')
  await until(async () => (await collect(client.listWebhookDeliveries(endpoint.id)))[0]?.outcome === 'succeeded', 'the log')
  const log = await collect(client.listWebhookDeliveries(endpoint.id, { limit: 1 }))
  t.match(log, [{ eventId: event.id, attempt: 1, outcome: 'succeeded', responseStatus: 204 }])
  const rotated = await client.rotateWebhookSecret(endpoint.id, { graceSeconds: 0 })
  t.notOk('previousSecretExpiresAt' in rotated)
  t.same((await client.updateWebhookEndpoint(endpoint.id, { enabled: false })).enabled, false)
  await client.deleteWebhookEndpoint(endpoint.id)
  t.same(await collect(client.listWebhookEndpoints()), [])
})
