/**
 * Verifying a webhook from the petstore service, in any runtime with Web Crypto (Node 20,
 * browsers, workers): Standard Webhooks (standardwebhooks.com), so a receiver may as well
 * use any of its libraries. `verifyWebhook` checks that the body was signed with the
 * endpoint's secret (any of the signatures, since a rotation sends two) at a time within
 * five minutes of now, and answers the event, its int64 integers exact.
 */
import { parseJson } from './json.ts'
import type { Event } from './types.ts'

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError'
}

/** Request headers as a `Headers` or as a plain object (Node's `IncomingHttpHeaders`, say), names in any case. */
export type WebhookHeaders = Headers | Readonly<Record<string, string | readonly string[] | undefined>>

export interface VerifyOptions {
  /** How far the `webhook-timestamp` may be from now, either way; 300 s by default. */
  toleranceSeconds?: number
  /** Now, for tests. */
  now?: Date
}

const PREFIX = 'whsec_'

function header (headers: WebhookHeaders, name: string): string {
  let value: string | readonly string[] | null | undefined
  if (typeof (headers as Headers).get === 'function') {
    value = (headers as Headers).get(name)
  } else {
    const record = headers as Readonly<Record<string, string | readonly string[] | undefined>>
    value = record[name] ?? Object.entries(record).find(([key]) => key.toLowerCase() === name)?.[1]
  }
  const text = typeof value === 'string' ? value : value?.join(', ')
  if (text === undefined || text === '') throw new WebhookVerificationError(`no ${name} header`)
  return text
}

function base64 (bytes: ArrayBuffer): string {
  let binary = ''
  for (const byte of new Uint8Array(bytes)) binary += String.fromCharCode(byte)
  return btoa(binary)
}

function fromBase64 (text: string): Uint8Array<ArrayBuffer> {
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0))
  } catch {
    throw new WebhookVerificationError('the secret is not whsec_ and base64')
  }
}

/** Equal strings, in a time that depends on their length alone. */
function same (a: string, b: string): boolean {
  if (a.length !== b.length) return false
  let difference = 0
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return difference === 0
}

/**
 * The event a webhook delivered, once its signature and timestamp are verified; throws a
 * `WebhookVerificationError` otherwise. `body` is the request body exactly as received
 * (bytes or text): parse it only after verifying.
 */
export async function verifyWebhook (secret: string, headers: WebhookHeaders, body: string | Uint8Array, options: VerifyOptions = {}): Promise<Event> {
  const id = header(headers, 'webhook-id')
  const timestamp = header(headers, 'webhook-timestamp')
  const signatures = header(headers, 'webhook-signature')
  if (!/^\d+$/.test(timestamp)) throw new WebhookVerificationError('webhook-timestamp is not unix seconds')
  const now = Math.floor((options.now ?? new Date()).getTime() / 1000)
  const tolerance = options.toleranceSeconds ?? 300
  if (Number(timestamp) < now - tolerance) throw new WebhookVerificationError('webhook-timestamp is too old')
  if (Number(timestamp) > now + tolerance) throw new WebhookVerificationError('webhook-timestamp is in the future')

  const key = await crypto.subtle.importKey('raw', fromBase64(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : body
  const head = new TextEncoder().encode(`${id}.${timestamp}.`)
  const signed = new Uint8Array(head.length + bytes.length)
  signed.set(head)
  signed.set(bytes, head.length)
  const expected = base64(await crypto.subtle.sign('HMAC', key, signed))
  const matches = signatures.split(' ').some((entry) => {
    const [version, signature] = entry.split(',', 2)
    return version === 'v1' && signature !== undefined && same(signature, expected)
  })
  if (!matches) throw new WebhookVerificationError('no signature matches the secret')
  return parseJson(typeof body === 'string' ? body : new TextDecoder().decode(body)) as Event
}
