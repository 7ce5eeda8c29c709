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
 * A key given, or a key file present, is read at start, so a bad one stops the start with
 * a message naming it; a missing key file is made when the first secret is sealed.
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

export async function secretsKeySource (options: { key?: string, file?: string }): Promise<SecretsKeySource> {
  if (options.key !== undefined) {
    const key = secretsKeyFromText(options.key, 'WEBHOOK_SECRETS_KEY')
    return async () => key
  }
  const file = options.file
  if (file === undefined) {
    const { key } = newSecretsKey()
    return async () => key
  }
  let key = await readKeyFile(file)
  return async () => {
    key ??= await makeKeyFile(file)
    return key
  }
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
