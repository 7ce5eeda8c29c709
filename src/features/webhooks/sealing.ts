/**
 * Webhook secrets at rest. Signing needs each secret itself (an HMAC key cannot be checked
 * against a hash of it, as API keys are), so the service must be able to read it back; but
 * a copy of the database alone (a backup, a dump, a stolen disk image of the database
 * volume) should not hand every subscriber's secret out. So a secret is stored sealed:
 * AES-256-GCM under a key kept outside the database (`WEBHOOK_SECRETS_KEY`, or a file made
 * beside the database on first use), with a fresh nonce each time, and the key's id beside
 * it, so a service given another key says so rather than sign with garbage.
 *
 *   v1:<key id: 16 hex>:<base64url of nonce (12 bytes), ciphertext, tag (16 bytes)>
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto'
import { secretsKeyBytes } from '../../config/values.ts'

export interface SecretsKey {
  /** The first 8 bytes of the key's SHA-256, in hex: names the key, tells nothing of it. */
  readonly id: string
  readonly bytes: Buffer
}

function keyOf (bytes: Buffer): SecretsKey {
  return { id: createHash('sha256').update(bytes).digest('hex').slice(0, 16), bytes }
}

/** A new random key, and its text (base64 of 32 bytes), for a key file. */
export function newSecretsKey (): { key: SecretsKey, text: string } {
  const bytes = randomBytes(32)
  return { key: keyOf(bytes), text: bytes.toString('base64') }
}

/** The key written as text (base64 or base64url of 32 bytes); throws saying what is wrong, naming `origin`. */
export function secretsKeyFromText (text: string, origin: string): SecretsKey {
  return keyOf(secretsKeyBytes(text, origin))
}

const FORMAT = /^v1:([0-9a-f]{16}):([A-Za-z0-9_-]+)$/

export function sealSecret (key: SecretsKey, secret: string): string {
  const nonce = randomBytes(12)
  const cipher = createCipheriv('aes-256-gcm', key.bytes, nonce)
  const sealed = Buffer.concat([nonce, cipher.update(secret, 'utf8'), cipher.final(), cipher.getAuthTag()])
  return `v1:${key.id}:${sealed.toString('base64url')}`
}

/** The secret a sealed one holds; throws saying why it cannot be opened. */
export function openSecret (key: SecretsKey, sealed: string): string {
  const parts = FORMAT.exec(sealed)
  if (parts === null) throw new Error('a stored webhook secret is not in the sealed form (v1:key id:data)')
  if (parts[1] !== key.id) {
    throw new Error(`a webhook secret was sealed with the key ${parts[1]!}, and this service has the key ${key.id}: every instance needs the same WEBHOOK_SECRETS_KEY (or key file)`)
  }
  const data = Buffer.from(parts[2]!, 'base64url')
  if (data.length < 12 + 16) throw new Error('a stored webhook secret is too short to be sealed')
  const decipher = createDecipheriv('aes-256-gcm', key.bytes, data.subarray(0, 12))
  decipher.setAuthTag(data.subarray(data.length - 16))
  try {
    return Buffer.concat([decipher.update(data.subarray(12, data.length - 16)), decipher.final()]).toString('utf8')
  } catch {
    throw new Error(`a stored webhook secret does not open with the key ${key.id}: it was altered`)
  }
}
