/**
 * First run: with no key anywhere, the service makes one, so `npm start` alone gives a
 * usable service. It goes through the same code as every other key.
 */
import type { FastifyInstance } from 'fastify'
import { createApiKey } from './repositories/api-keys.ts'

/** Makes and returns a key when none is configured; undefined otherwise. */
export async function ensureFirstRunKey (app: FastifyInstance): Promise<string | undefined> {
  if (app.apiKeys.size > 0) return undefined
  const { key } = await createApiKey(app.db, 'first-run')
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
