/**
 * First run: with no key anywhere, the service makes one, so `npm start` alone gives a
 * usable service. It goes through the same code as every other key.
 *
 * The key never enters the log stream: on a terminal it is shown there; without one (a
 * container, a service manager, where stdout is the log) it is written to a file only its
 * owner can read, and the log says where.
 */
import { chmod, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import { isPostgresUrl, sqlitePath } from '../../database/url.ts'
import { createApiKey } from './repository.ts'

/** Makes and returns a key when none is configured; undefined otherwise. */
export async function ensureFirstRunKey (app: FastifyInstance): Promise<string | undefined> {
  if (app.apiKeys.size > 0) return undefined
  const { key } = await createApiKey(app.db, { name: 'first-run', scopes: app.apiKeys.everyScope })
  await app.apiKeys.sync(app)
  return key
}

export function firstRunMessage (key: string, baseUrl: string): string {
  return [
    '',
    'No API key was configured, so one was made. It is shown this once; keep it:',
    '',
    `  ${key}`,
    '',
    'Try it:',
    '',
    `  curl -H 'Authorization: Bearer ${key}' ${baseUrl}/v1/pets`,
    ''
  ].join('\n')
}

/** Beside the SQLite database; in the working directory for PostgreSQL or a database in memory. */
export function firstRunKeyFile (databaseUrl: string, cwd = process.cwd()): string {
  const path = sqlitePath(databaseUrl)
  const folder = isPostgresUrl(databaseUrl) || path === ':memory:' ? cwd : dirname(resolve(cwd, path))
  return join(folder, 'first-run-key.txt')
}

export interface Announcement {
  key: string
  baseUrl: string
  databaseUrl: string
  isTerminal: boolean
  terminal: { write: (text: string) => unknown }
  log: FastifyBaseLogger
}

/** Shows the first-run key on the terminal, or writes it to a private file and logs where. */
export async function announceFirstRunKey ({ key, baseUrl, databaseUrl, isTerminal, terminal, log }: Announcement): Promise<void> {
  const message = firstRunMessage(key, baseUrl)
  if (isTerminal) {
    terminal.write(message + '\n')
    return
  }
  const file = firstRunKeyFile(databaseUrl)
  await writeFile(file, message + '\n', { mode: 0o600 })
  // The mode above applies only to a new file; one left from an earlier run is made private too.
  await chmod(file, 0o600)
  log.warn({ file }, `No API key was configured, so one was made. It is in ${file}, readable by this user only: read it, then delete the file`)
}
