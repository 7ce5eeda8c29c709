/**
 * API key material. A key is `pst_` followed by 32 random bytes in base64url: the prefix
 * makes a leaked key easy to spot in logs and by secret scanners.
 *
 * Keys are stored and compared as SHA-256 hashes. A key has 256 bits of entropy, so a
 * fast hash is enough (no password stretching needed), and looking up the hash of the
 * presented token leaks nothing useful through timing: an attacker cannot steer the hash.
 */
import { hash, randomBytes } from 'node:crypto'

const PREFIX = 'pst_'

export function generateKey (): string {
  return PREFIX + randomBytes(32).toString('base64url')
}

export function hashKey (key: string): string {
  return hash('sha256', key, 'hex')
}

/** What `keys list` shows: enough to tell keys apart, far too little to use. */
export function keyPrefix (key: string): string {
  return key.slice(0, PREFIX.length + 6)
}
