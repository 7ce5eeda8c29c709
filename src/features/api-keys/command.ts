/**
 * `npm run keys -- <command>` (scripts/keys.ts): API keys in the configured database.
 *
 *   create --name NAME [--scopes S,S] [--expires-in 30d] [--json]
 *                             make a key and print it (the only time it is shown); every
 *                             scope and no expiry unless given
 *   list [--json]             every key: id, name, scopes, created, expires, last used, revoked
 *   rotate NAME|ID [--grace 1h] [--expires-in 30d] [--json]
 *                             a new key with the same name and scopes, and the old one's
 *                             lifetime (expiry less creation) from now unless --expires-in
 *                             says otherwise; the old one works for the grace (default 1h;
 *                             0 ends it now)
 *   revoke NAME|ID            revoke a key: by name, every key of that name
 *   revoke --id ID | --name NAME, rotate --id ID | --name NAME
 *                             the same, saying which: a key may well be *named* 4242
 *
 * Every change reaches every running service within two seconds. The arguments are
 * checked before the database is touched: a bad scope, duration or name makes nothing, and
 * neither does an option given twice (exit status 2, as for any line that is not a usage).
 *
 * A key is shown with the scopes it was given and those they include (`pets:write
 * (includes pets:read)`; `effectiveScopes` in JSON), while it keeps only the ones it was
 * given: what they include is read from the document at each check, not stored.
 */
import { parseArgs } from 'node:util'
import { stringify } from 'lossless-json'
import type { Kysely } from 'kysely'
import type { Database } from '../../database/schema.ts'
import { effectiveScopes } from '../../contract/scope-inclusion.ts'
import { parseDuration } from './durations.ts'
import { createApiKey, findActiveApiKeys, listApiKeys, revokeApiKeys, rotateApiKey, type ApiKeyInfo, type KeySelector } from './repository.ts'

export const USAGE = [
  'usage: npm run keys -- create --name NAME [--scopes SCOPE,SCOPE] [--expires-in 30d|12h|45m] [--json]',
  '       npm run keys -- list [--json]',
  '       npm run keys -- rotate NAME|ID [--grace 1h|0] [--expires-in 30d|12h|45m] [--json]',
  '       npm run keys -- revoke NAME|ID',
  '  (rotate and revoke also take --id ID or --name NAME in place of NAME|ID)',
  '  (rotate: the new key lasts as long as the old one was made to last, from now, unless --expires-in is given)'
].join('\n')

/**
 * A command line that is not one of the usages: exit status 2, with the usage, after what
 * is wrong where there is more to say. Its message is what the program prints.
 */
export class UsageError extends Error {
  constructor (problem?: string) { super(problem === undefined ? USAGE : `keys: ${problem}\n${USAGE}`) }
}

// Control, format (bidi and other invisible) and separator characters, unpaired surrogates.
const UNPRINTABLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu
// The same, to test with: a global pattern's test() would carry lastIndex between calls.
const HAS_UNPRINTABLE = new RegExp(UNPRINTABLE.source, 'u')

/** A name as a terminal can show it safely: anything unprintable as a \u{...} escape. */
function printable (name: string): string {
  return name.replace(UNPRINTABLE, (char) => `\\u{${char.codePointAt(0)!.toString(16)}}`)
}

const NAME_RULE = 'a key name is 1 to 100 characters, with no control or invisible formatting characters'

function checkedName (name: string | undefined): string {
  const trimmed = name?.trim()
  if (trimmed === undefined || trimmed === '') throw new UsageError()
  if ([...trimmed].length > 100 || HAS_UNPRINTABLE.test(trimmed)) throw new Error(NAME_RULE)
  return trimmed
}

/** `--scopes a,b`: each one the document lists, in the document's order; all of them when not given. */
function checkedScopes (text: string | undefined, everyScope: readonly string[]): string[] {
  if (text === undefined) return [...everyScope]
  const asked = text.split(',').map((scope) => scope.trim())
  const unknown = asked.filter((scope) => !everyScope.includes(scope))
  if (unknown.length > 0 || asked.length === 0) {
    const named = unknown.map((scope) => JSON.stringify(printable(scope))).join(', ')
    throw new Error(`unknown scope ${named}: the scopes are ${everyScope.join(', ')} (--scopes takes one or more, comma-separated)`)
  }
  return everyScope.filter((scope) => asked.includes(scope))
}

const ID = /^\d{1,19}$/

function expiresAt (text: string | undefined, now: Date): Date | undefined {
  return text === undefined ? undefined : new Date(now.getTime() + parseDuration('--expires-in', text))
}

/** A key as shown: after its scopes, every scope it may use (those and the ones they include). */
type ShownKey = ApiKeyInfo & { effectiveScopes: string[] }

function shown ({ id, name, prefix, scopes, ...rest }: ApiKeyInfo, everyScope: readonly string[]): ShownKey {
  return { id, name, prefix, scopes, effectiveScopes: effectiveScopes(scopes, everyScope), ...rest }
}

/** The scopes given, then ` (includes …)` for those they include that were not given too. */
function scopeList (key: ShownKey, separator: string): string {
  const included = key.effectiveScopes.filter((scope) => !key.scopes.includes(scope))
  return `${key.scopes.join(separator)}${included.length === 0 ? '' : ` (includes ${included.join(separator)})`}`
}

function table (keys: ShownKey[], now: Date): string {
  const expires = (key: ShownKey) => key.expiresAt === null ? '-' : `${key.expiresAt}${Date.parse(key.expiresAt) <= now.getTime() ? ' (expired)' : ''}`
  const rows = [['ID', 'NAME', 'PREFIX', 'SCOPES', 'CREATED', 'EXPIRES', 'LAST USED', 'REVOKED'],
    ...keys.map((key) => [String(key.id), printable(key.name), `${key.prefix}…`, scopeList(key, ',') || '-', key.createdAt,
      expires(key), key.lastUsedAt ?? '-', key.revokedAt ?? '-'])]
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)))
  return rows.map((row) => row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd()).join('\n')
}

/** JSON for scripts; an id beyond 2^53 (a BigInt) stays an exact number. */
function json (value: unknown): string {
  return stringify(value, undefined, 2)!
}

function describe (key: ShownKey): string {
  return `"${printable(key.name)}" (id ${key.id}), scopes ${scopeList(key, ', ')}, ${key.expiresAt === null ? 'no expiry' : `expires ${key.expiresAt}`}`
}

function shownOnce (key: string): string {
  return `It is shown this once; store it now:\n\n  ${key}\n`
}

/** Which key `rotate` or `revoke` means: --id, --name, or a bare target that must not be both. */
function selector (target: string | undefined, id: string | undefined, name: string | undefined): KeySelector | { either: string } {
  const given = [target, id, name].filter((value) => value !== undefined)
  if (given.length !== 1) throw new UsageError()
  if (id !== undefined) {
    if (!ID.test(id)) throw new UsageError()
    return { id: BigInt(id) }
  }
  if (name !== undefined) return { name }
  return ID.test(target!) ? { either: target! } : { name: target! }
}

/** A bare target made of digits: the id of an active key, or a name, but never both. */
async function resolved (db: Kysely<Database>, target: KeySelector | { either: string }): Promise<KeySelector> {
  if (!('either' in target)) return target
  const text = target.either
  const byId = await findActiveApiKeys(db, { id: BigInt(text) })
  const byName = await findActiveApiKeys(db, { name: text })
  if (byId.length > 0 && byName.some((key) => key.id !== byId[0]!.id)) {
    throw new Error(`"${text}" is the id of one active key and the name of another; say --id ${text} or --name ${text}`)
  }
  if (byId.length === 0 && byName.length === 0) throw new Error(`no active key with the id or name "${text}"`)
  return byId.length === 0 ? { name: text } : { id: BigInt(text) }
}

function named (selector: KeySelector): string {
  return 'id' in selector ? `the id ${selector.id}` : `the name "${printable(selector.name)}"`
}

/** The command a command line asks for, checked; it runs against a database. */
export type KeysCommand = (db: Kysely<Database>) => Promise<string>

/** Reads a command line; throws a UsageError, or an Error naming the bad value, before anything is done. */
export function keysCommand (args: string[], everyScope: readonly string[], now = new Date()): KeysCommand {
  const options = {
    name: { type: 'string' },
    id: { type: 'string' },
    scopes: { type: 'string' },
    'expires-in': { type: 'string' },
    grace: { type: 'string' },
    json: { type: 'boolean' }
  } as const
  let parsed
  try {
    parsed = parseArgs({ args, allowPositionals: true, options, tokens: true })
  } catch {
    throw new UsageError()
  }
  const { positionals: [command, target, ...extra], values, tokens } = parsed
  const allowed = { create: ['name', 'scopes', 'expires-in', 'json'], list: ['json'], rotate: ['name', 'id', 'grace', 'expires-in', 'json'], revoke: ['name', 'id'] }
  const known = allowed[command as keyof typeof allowed]
  if (known === undefined || extra.length > 0 || Object.keys(values).some((option) => !known.includes(option))) throw new UsageError()
  // parseArgs keeps the last of a repeated option: `--scopes a --scopes b` would quietly mean b.
  const given = tokens.flatMap((token) => token.kind === 'option' ? [token.name] : [])
  const repeated = given.find((option, index) => given.indexOf(option) !== index)
  if (repeated !== undefined) throw new UsageError(`--${repeated} is given more than once; give each option once`)
  switch (command) {
    case 'create': {
      if (target !== undefined) throw new UsageError()
      const name = checkedName(values.name)
      const scopes = checkedScopes(values.scopes, everyScope)
      const expiry = expiresAt(values['expires-in'], now)
      return async (db) => {
        const { key, info } = await createApiKey(db, { name, scopes, expiresAt: expiry }, now)
        const made = shown(info, everyScope)
        return values.json === true ? json({ key, ...made }) : `Created key ${describe(made)}. ${shownOnce(key)}`
      }
    }
    case 'list': {
      if (target !== undefined) throw new UsageError()
      return async (db) => {
        const keys = (await listApiKeys(db)).map((info) => shown(info, everyScope))
        if (values.json === true) return json(keys)
        return keys.length === 0 ? 'No keys.' : table(keys, now)
      }
    }
    case 'rotate': {
      const which = selector(target, values.id, values.name)
      const graceMs = values.grace === undefined ? 3_600_000 : parseDuration('--grace', values.grace, { zero: true })
      const expiry = expiresAt(values['expires-in'], now)
      return async (db) => {
        const chosen = await resolved(db, which)
        const rotated = await rotateApiKey(db, chosen, { graceMs, expiresAt: expiry }, now)
        if (rotated === undefined) throw new Error(`no current key with ${named(chosen)} (revoked and already rotated keys cannot be rotated)`)
        const [made, replaced] = [shown(rotated.info, everyScope), shown(rotated.replaced, everyScope)]
        if (values.json === true) return json({ key: rotated.key, ...made, replaced })
        const ends = graceMs === 0 ? 'now' : `at ${replaced.expiresAt}`
        return `Rotated key "${printable(made.name)}": the old key (id ${replaced.id}) stops working ${ends}. ` +
          `The new key is ${describe(made)}. ${shownOnce(rotated.key)}`
      }
    }
    default: {
      const which = selector(target, values.id, values.name)
      return async (db) => {
        const chosen = await resolved(db, which)
        const revoked = await revokeApiKeys(db, chosen, now)
        if (revoked.length === 0) throw new Error(`no active key with ${named(chosen)}`)
        return revoked.map((key) => `Revoked key "${printable(key.name)}" (id ${key.id}).`).join('\n')
      }
    }
  }
}
