/**
 * Webhook signatures, as Standard Webhooks (standardwebhooks.com) defines them, so that its
 * reference libraries verify a delivery unchanged: each delivery carries `webhook-id` (the
 * event's id, the same on every attempt), `webhook-timestamp` (unix seconds of the attempt)
 * and `webhook-signature`, `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body` keyed
 * with the secret's bytes, one entry per live secret (both during a rotation's grace),
 * separated by spaces.
 */
import { createHmac, randomBytes } from 'node:crypto'

const PREFIX = 'whsec_'

/** A new secret: `whsec_` and the base64 of 32 random bytes. */
export function newWebhookSecret (): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`
}

/** The bytes a secret stands for (those after its prefix, base64-decoded). */
function keyOf (secret: string): Buffer {
  if (!secret.startsWith(PREFIX)) throw new Error('a webhook secret starts with whsec_')
  return Buffer.from(secret.slice(PREFIX.length), 'base64')
}

/** The three headers of one attempt to deliver `body`, the event `id`, signed with every live secret. */
export function webhookHeaders (secrets: readonly string[], id: string, timestamp: Date, body: string): Record<'webhook-id' | 'webhook-timestamp' | 'webhook-signature', string> {
  if (secrets.length === 0) throw new Error('a webhook is signed with at least one secret')
  const seconds = String(Math.floor(timestamp.getTime() / 1000))
  const signed = `${id}.${seconds}.${body}`
  const signatures = secrets.map((secret) => `v1,${createHmac('sha256', keyOf(secret)).update(signed).digest('base64')}`)
  return { 'webhook-id': id, 'webhook-timestamp': seconds, 'webhook-signature': signatures.join(' ') }
}
