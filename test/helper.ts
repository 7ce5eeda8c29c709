/**
 * Builds an app on a fresh in-memory database for one test, and closes it afterwards.
 */
import type { Test } from 'tap'
import { buildApp, type AppOptions } from '../src/app.ts'

/** A clearly fake key, accepted through the environment-keys path. */
export const TEST_KEY = 'test-key-not-a-real-secret-0000'
export const AUTH = { authorization: `Bearer ${TEST_KEY}` } as const
export const JSON_HEADERS = { ...AUTH, 'content-type': 'application/json' } as const

export async function build (t: Test, options: Partial<AppOptions> = {}) {
  const app = await buildApp({ database: { url: ':memory:' }, apiKeys: [TEST_KEY], ...options })
  t.teardown(() => app.close())
  return app
}

export function errorBody (code: string, message: string, status: number) {
  return { code, message, status }
}
