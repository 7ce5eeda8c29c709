/**
 * Webhook secrets are stored sealed under a key outside the database: the stored form
 * holds no secret in any readable encoding, opens with that key alone, and says why not
 * with any other key or once altered.
 */
import t from 'tap'
import { newSecretsKey, openSecret, sealSecret, secretsKeyFromText } from '../../../src/features/webhooks/sealing.ts'
import { newWebhookSecret } from '../../../src/features/webhooks/signature.ts'

t.test('a sealed secret opens with its key, and shows nothing of the secret', async (t) => {
  const { key } = newSecretsKey()
  const secret = newWebhookSecret()
  const sealed = sealSecret(key, secret)
  t.match(sealed, new RegExp(`^v1:${key.id}:[A-Za-z0-9_-]+$`))
  const raw = Buffer.from(secret.slice(6), 'base64')
  for (const form of [secret, secret.slice(6), raw.toString('hex'), raw.toString('base64url')]) t.notOk(sealed.includes(form))
  t.equal(openSecret(key, sealed), secret)
  t.not(sealSecret(key, secret), sealed, 'a fresh nonce each time')
})

t.test('another key, an altered or malformed secret: refused, saying why', async (t) => {
  const { key } = newSecretsKey()
  const other = newSecretsKey().key
  const sealed = sealSecret(key, newWebhookSecret())
  t.throws(() => openSecret(other, sealed), { message: `a webhook secret was sealed with the key ${key.id}, and this service has the key ${other.id}: every instance needs the same WEBHOOK_SECRETS_KEY (or key file)` })
  const data = sealed.split(':')[2]!
  const flipped = `v1:${key.id}:${data.slice(0, 30)}${data[30] === 'A' ? 'B' : 'A'}${data.slice(31)}`
  t.throws(() => openSecret(key, flipped), { message: `a stored webhook secret does not open with the key ${key.id}: it was altered` })
  t.throws(() => openSecret(key, `v1:${key.id}:AAAA`), { message: 'a stored webhook secret is too short to be sealed' })
  t.throws(() => openSecret(key, 'whsec_c2VjcmV0'), { message: 'a stored webhook secret is not in the sealed form (v1:key id:data)' })
})

t.test('a key is 32 bytes in base64 or base64url; anything else is refused naming where it came from', async (t) => {
  const { key, text } = newSecretsKey()
  t.equal(secretsKeyFromText(text, 'WEBHOOK_SECRETS_KEY').id, key.id)
  t.equal(secretsKeyFromText(` ${Buffer.from(key.bytes).toString('base64url')}\n`, 'a file').id, key.id, 'base64url, with spaces around')
  t.match(key.id, /^[0-9a-f]{16}$/)
  for (const bad of ['', 'short', Buffer.alloc(16).toString('base64'), Buffer.alloc(33).toString('base64'), `${text.slice(0, -2)}!=`]) {
    t.throws(() => secretsKeyFromText(bad, 'WEBHOOK_SECRETS_KEY'), { message: 'WEBHOOK_SECRETS_KEY must be 32 random bytes in base64 (openssl rand -base64 32)' }, JSON.stringify(bad))
  }
})
