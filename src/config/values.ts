/**
 * The variables whose values are more than a number or a word, read into what the service
 * uses. Each parser throws saying what is wrong with the value; ./config.ts names the
 * variable. They live here, with the rest of the configuration, so that the features that
 * use the values (webhooks, the proxy's trust) import them from config/, never the other way.
 */
import ipaddr from 'ipaddr.js'

/** A network: an address and the length of its prefix. */
export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number]

/** `WEBHOOK_ALLOWED_NETWORKS`: CIDRs separated by commas; throws naming one that is not. */
export function parseNetworks (text: string): Network[] {
  return text.split(',').map((part) => part.trim()).filter((part) => part !== '').map((cidr) => {
    try {
      return ipaddr.parseCIDR(cidr)
    } catch {
      throw new Error(`not a network in CIDR notation (such as 127.0.0.0/8 or ::1/128): ${cidr}`)
    }
  })
}

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `WEBHOOK_RETRY_DELAYS`, in milliseconds; throws naming a part that is not a duration. */
export function parseRetryDelays (text: string): number[] {
  return text.split(',').map((part) => part.trim()).filter((part) => part !== '').map((part) => {
    const match = /^(\d+)(ms|s|m|h|d)$/.exec(part)
    if (match === null) throw new Error(`not a duration (a whole number and ms, s, m, h or d, such as 5s or 2h): ${part}`)
    return Number(match[1]) * UNITS[match[2]!]!
  })
}

/**
 * Fastify's trustProxy: false; a hop count (how many proxies stand in front); the
 * proxies' addresses or CIDRs; or true (trust any X-Forwarded-For: unsafe, see docs/operating/README.md).
 */
export type TrustProxy = boolean | number | string[]

/** `TRUST_PROXY`: empty or `false`, `true`, a hop count, or addresses and CIDRs separated by commas. */
export function parseTrustProxy (text: string): TrustProxy {
  if (text === '' || text === 'false') return false
  if (text === 'true') return true
  if (/^\d+$/.test(text)) return Number(text)
  return text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '')
}

// Shorter keys are guessable; the service's own keys are 47 characters.
const MIN_KEY_LENGTH = 16

/** `PETSTORE_API_KEYS`: keys separated by commas; throws when one is short or holds a space. */
export function parseApiKeys (text: string): string[] {
  const keys = text.split(',').map((key) => key.trim()).filter((key) => key !== '')
  if (keys.some((key) => key.length < MIN_KEY_LENGTH || /\s/.test(key))) {
    throw new Error(`each key must be at least ${MIN_KEY_LENGTH} characters without spaces`)
  }
  return keys
}

/**
 * The bytes of the key that seals webhook secrets, written as text (base64 or base64url of
 * 32 bytes, spaces around allowed): `WEBHOOK_SECRETS_KEY`, or a key file's content; throws
 * saying what is wrong, naming `origin`.
 */
export function secretsKeyBytes (text: string, origin: string): Buffer {
  const trimmed = text.trim()
  const bytes = /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed) ? Buffer.from(trimmed, trimmed.includes('+') || trimmed.includes('/') ? 'base64' : 'base64url') : undefined
  if (bytes?.length !== 32) throw new Error(`${origin} must be 32 random bytes in base64 (openssl rand -base64 32)`)
  return bytes
}
