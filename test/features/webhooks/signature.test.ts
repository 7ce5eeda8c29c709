/**
 * Webhook signatures as Standard Webhooks defines them, checked with its reference library
 * (`standardwebhooks`), not only with our own verifier.
 */
import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { newWebhookSecret, webhookHeaders } from '../../../src/features/webhooks/signature.ts'

const BODY = '{"id":"evt_AaIa3SWl6g0np3cTPiUXZw","type":"pet.created","timestamp":"2026-11-27T02:37:10.437Z","sequence":9007199254740993,"data":{"id":1,"name":"Rex","categoryId":1}}'

t.test('a secret is whsec_ and the base64 of 32 random bytes, a new one each time', async (t) => {
  const secrets = Array.from({ length: 20 }, () => newWebhookSecret())
  for (const secret of secrets) {
    t.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/)
    t.equal(Buffer.from(secret.slice(6), 'base64').length, 32)
  }
  t.equal(new Set(secrets).size, 20)
})

t.test('the reference library verifies a delivery signed with the secret, at its time', async (t) => {
  const secret = newWebhookSecret()
  const headers = webhookHeaders([secret], 'evt_AaIa3SWl6g0np3cTPiUXZw', new Date(), BODY)
  t.equal(headers['webhook-id'], 'evt_AaIa3SWl6g0np3cTPiUXZw')
  t.match(headers['webhook-timestamp'], /^\d{10}$/)
  t.match(headers['webhook-signature'], /^v1,[A-Za-z0-9+/]{43}=$/)
  // Verified without the library's JSON parse, which would round the int64 beyond 2^53.
  t.doesNotThrow(() => new Webhook(secret).verify(BODY, headers, { jsonParse: false }))
  t.same(new Webhook(secret).verify(BODY, headers), JSON.parse(BODY))
  t.throws(() => new Webhook(newWebhookSecret()).verify(BODY, headers), { name: 'WebhookVerificationError' }, 'another secret')
  t.throws(() => new Webhook(secret).verify(BODY.replace('Rex', 'Max'), headers), { name: 'WebhookVerificationError' }, 'another body')
  t.throws(() => new Webhook(secret).verify(BODY, { ...headers, 'webhook-id': 'evt_other' }), { name: 'WebhookVerificationError' }, 'another id')
  const old = webhookHeaders([secret], 'evt_AaIa3SWl6g0np3cTPiUXZw', new Date(Date.now() - 10 * 60 * 1000), BODY)
  t.throws(() => new Webhook(secret).verify(BODY, old), { name: 'WebhookVerificationError' }, 'ten minutes old')
  t.equal(headers['webhook-signature'], new Webhook(secret).sign('evt_AaIa3SWl6g0np3cTPiUXZw', new Date(Number(headers['webhook-timestamp']) * 1000), BODY), "the library's own signature, byte for byte")
})

t.test('during a rotation each delivery carries both signatures, and either secret verifies it', async (t) => {
  const [next, old] = [newWebhookSecret(), newWebhookSecret()]
  const headers = webhookHeaders([next, old], 'evt_x', new Date(), BODY)
  t.equal(headers['webhook-signature'].split(' ').length, 2)
  for (const secret of [next, old]) t.doesNotThrow(() => new Webhook(secret).verify(BODY, headers, { jsonParse: false }))
  t.throws(() => new Webhook(newWebhookSecret()).verify(BODY, headers), { name: 'WebhookVerificationError' })
})

t.test('signing needs a secret of the right form, and at least one', async (t) => {
  t.throws(() => webhookHeaders([], 'evt_x', new Date(), BODY), /at least one secret/)
  t.throws(() => webhookHeaders(['c2VjcmV0'], 'evt_x', new Date(), BODY), /starts with whsec_/)
})
