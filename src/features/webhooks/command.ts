/**
 * `npm run webhooks -- <command>` (scripts/webhooks.ts): webhook endpoints in the configured
 * database, with the service stopped or running.
 *
 *   rotate-secrets --all [--json]
 *                             give every endpoint a new secret, sealed with the key
 *                             configured now, and print each (the only time they are
 *                             shown); the old secrets stop at once
 *
 * The way back when the key that sealed the secrets is lost (the start refuses the key
 * configured now, ./secrets-key.ts): the old secrets cannot be opened, so none is kept for
 * a grace. Without WEBHOOK_SECRETS_KEY, a key file missing is made.
 */
import { parseArgs } from 'node:util'
import { stringify } from 'lossless-json'
import type { Kysely } from 'kysely'
import type { Database } from '../../database/schema.ts'
import { rotateEverySecret } from './endpoints.ts'
import { sealSecret } from './sealing.ts'
import { replacementKey } from './secrets-key.ts'
import { newWebhookSecret } from './signature.ts'

export const USAGE = [
  'usage: npm run webhooks -- rotate-secrets --all [--json]',
  '  (every endpoint gets a new secret, sealed with WEBHOOK_SECRETS_KEY or the key file; the old ones stop at once)'
].join('\n')

/** A command line that is not the usage: exit status 2, with the usage. */
export class UsageError extends Error {
  constructor () { super(USAGE) }
}

/** Where the key for the secrets is: `WEBHOOK_SECRETS_KEY`, or else the key file. */
export interface KeySettings { key?: string, file?: string }

/** The command a command line asks for, checked; it runs against a database. */
export type WebhooksCommand = (db: Kysely<Database>, keySettings: KeySettings) => Promise<string>

/** Reads a command line; throws a UsageError before anything is done. */
export function webhooksCommand (args: string[]): WebhooksCommand {
  let parsed
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { all: { type: 'boolean' }, json: { type: 'boolean' } } })
  } catch {
    throw new UsageError()
  }
  const { positionals, values } = parsed
  // --all is asked for, not implied: the command ends every endpoint's secret at once.
  if (positionals.length !== 1 || positionals[0] !== 'rotate-secrets' || values.all !== true) throw new UsageError()
  return async (db, keySettings) => {
    const { key, origin } = await replacementKey(keySettings)
    const rotated = await rotateEverySecret(db, newWebhookSecret, (secret) => sealSecret(key, secret))
    if (values.json === true) return stringify(rotated, undefined, 2)!
    if (rotated.length === 0) return `No webhook endpoints: no secret to rotate (the key is ${key.id}, ${origin}).`
    const widths = [Math.max(...rotated.map(({ id }) => String(id).length)), Math.max(...rotated.map(({ url }) => url.length))]
    const lines = rotated.map(({ id, url, secret }) => `  ${String(id).padEnd(widths[0]!)}  ${url.padEnd(widths[1]!)}  ${secret}`)
    return `Gave every webhook endpoint (${rotated.length}) a new secret, sealed with the key ${key.id} (${origin}); the old secrets stop now. ` +
      `Each is shown this once; hand each to its endpoint's receiver:\n\n${lines.join('\n')}\n`
  }
}
