/**
 * Where the key that seals webhook secrets (./sealing.ts) comes from:
 * - `WEBHOOK_SECRETS_KEY`, the key itself (base64 of 32 bytes): what several instances on
 *   several machines share;
 * - otherwise a key file, `WEBHOOK_SECRETS_KEY_FILE`, by default `webhook-secrets.key` beside
 *   the SQLite database (for PostgreSQL, in `./data/`), made on first use, readable by its
 *   owner only. Back it up with the database: without it, the secrets the database holds
 *   cannot be opened (the endpoints then need a rotation).
 * - A database in memory has a key in memory, gone with it.
 *
 * The start checks the key against the ids of the keys the database's secrets were sealed
 * with: another key, or a key file gone while sealed secrets remain, stops the start saying
 * how to recover, rather than leave every delivery unsigned. So a key file is made only
 * while the database holds no sealed secret; `rotate-secrets --all` (./command.ts), which
 * replaces every one of them, may make one in any case (`replacementKey`).
 */
import { randomBytes } from 'node:crypto'
import { link, mkdir, open, readFile, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { newSecretsKey, secretsKeyFromText, type SecretsKey } from './sealing.ts'

export const KEY_FILE_NAME = 'webhook-secrets.key'

/** The key file's path when none is configured: beside a SQLite file, or in ./data/. */
export function defaultKeyFile (databaseUrl: string): string | undefined {
  if (/^postgres(ql)?:\/\//.test(databaseUrl)) return join('data', KEY_FILE_NAME)
  const path = databaseUrl.replace(/^sqlite:(\/\/)?/, '')
  if (path === ':memory:' || path === '') return undefined
  return join(dirname(path), KEY_FILE_NAME)
}

/** Gives the key, making the key file the first time it is needed. */
export type SecretsKeySource = () => Promise<SecretsKey>

/** The ids of the keys the database's sealed secrets were sealed with (./endpoints.ts). */
export type StoredKeyIds = () => Promise<readonly string[]>

/** The way back without the key the stored secrets were sealed with, `under` the key to use from now on. */
const recovery = (under: string) => 'or, if that key is lost, run `npm run webhooks -- rotate-secrets --all` with the same settings: ' +
  `it gives every endpoint a new secret, sealed with ${under}, to hand to its receiver`

const sealedWith = (ids: readonly string[]) => `the webhook secrets in the database were sealed with the key${ids.length > 1 ? 's' : ''} ${ids.join(', ')}`

const RESTORE_FILE = 'put back the key file they were sealed with, or set WEBHOOK_SECRETS_KEY to that key'

/** Throws, saying how to recover, unless every stored secret was sealed with `key`. */
function checkStored (stored: readonly string[], key: SecretsKey, origin: string, restore: string): void {
  const others = stored.filter((id) => id !== key.id)
  if (others.length > 0) throw new Error(`${origin} holds the key ${key.id}, but ${sealedWith(others)}: ${restore}, ${recovery(`the key ${key.id}`)}`)
}

function lostKeyFile (file: string, stored: readonly string[]): Error {
  return new Error(`the webhook secrets key file ${file} is missing, but ${sealedWith(stored)}, so no new key file is made: ${RESTORE_FILE}, ${recovery('a new key file it makes')}`)
}

/**
 * The configured key, once checked against the database's secrets (`storedKeyIds`): a key
 * that does not open them, or a key file missing while they exist, throws saying how to
 * recover.
 */
export async function secretsKeySource (options: { key?: string, file?: string, storedKeyIds: StoredKeyIds }): Promise<SecretsKeySource> {
  if (options.key !== undefined) {
    const key = secretsKeyFromText(options.key, 'WEBHOOK_SECRETS_KEY')
    checkStored(await options.storedKeyIds(), key, 'WEBHOOK_SECRETS_KEY', 'set WEBHOOK_SECRETS_KEY back to that key, on every instance')
    return async () => key
  }
  const file = options.file
  if (file === undefined) {
    const { key } = newSecretsKey()
    return async () => key
  }
  const found = await readKeyFile(file)
  if (found !== undefined) {
    checkStored(await options.storedKeyIds(), found, `the webhook secrets key file ${file}`, RESTORE_FILE)
    return async () => found
  }
  const stored = await options.storedKeyIds()
  if (stored.length > 0) throw lostKeyFile(file, stored)
  // One making at a time; one that failed is tried again at the next use.
  let made: Promise<SecretsKey> | undefined
  return async () => {
    made ??= keyOnFirstUse(file, options.storedKeyIds).catch((error: unknown) => {
      made = undefined
      throw error
    })
    return made
  }
}

/**
 * The key file made now, or by another instance on this directory since the start. Another
 * instance on this database (on another machine) may have sealed secrets meanwhile with a
 * key of its own: then no key file is made, as at a start.
 */
async function keyOnFirstUse (file: string, storedKeyIds: StoredKeyIds): Promise<SecretsKey> {
  const stored = await storedKeyIds()
  const found = await readKeyFile(file)
  if (found === undefined && stored.length > 0) throw lostKeyFile(file, stored)
  const key = found ?? await makeKeyFile(file)
  checkStored(stored, key, `the webhook secrets key file ${file}`, RESTORE_FILE)
  return key
}

/**
 * The key that seals the secrets replacing every stored one: the configured key, or the key
 * file's, or, the file missing, a key file made now. Says where it came from.
 */
export async function replacementKey (options: { key?: string, file?: string }): Promise<{ key: SecretsKey, origin: string }> {
  if (options.key !== undefined) return { key: secretsKeyFromText(options.key, 'WEBHOOK_SECRETS_KEY'), origin: 'WEBHOOK_SECRETS_KEY' }
  if (options.file === undefined) return { key: newSecretsKey().key, origin: 'a key in memory' }
  const found = await readKeyFile(options.file)
  if (found !== undefined) return { key: found, origin: `the key file ${options.file}` }
  return { key: await makeKeyFile(options.file), origin: `the key file ${options.file}, made now` }
}

async function readKeyFile (file: string): Promise<SecretsKey | undefined> {
  const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined
    throw new Error(`the webhook secrets key file ${file} cannot be read: ${error.message}`)
  })
  return text === undefined ? undefined : secretsKeyFromText(text, `the webhook secrets key file ${file}`)
}

/**
 * Writes a new key to `file`, unless another process (an instance starting beside this one)
 * made it first: then that key, so every instance on this directory seals with one key. The
 * key is written whole to a file of its own, then linked in place, which fails if `file`
 * exists: no reader ever sees a key file half written.
 */
async function makeKeyFile (file: string): Promise<SecretsKey> {
  await mkdir(dirname(file), { recursive: true })
  const { key, text } = newSecretsKey()
  const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`
  const handle = await open(draft, 'wx', 0o600)
  try {
    await handle.writeFile(`${text}\n`)
    await handle.sync()
  } finally {
    await handle.close()
  }
  try {
    await link(draft, file)
    return key
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    return (await readKeyFile(file))!
  } finally {
    await unlink(draft)
  }
}
