/**
 * A real listening service for the client tests: the app of test/helpers/app.ts on a free port
 * of this process (cheaper than a child process, and its code counts in the coverage),
 * reached over a real socket, as a consumer reaches it.
 */
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'
import type { AppOptions } from '../../src/app.ts'
import { createPetstoreClient, type PetstoreClientOptions } from '../src/index.ts'
import { build, TEST_KEY } from '../../test/helpers/app.ts'

export async function listening (t: Test, options: Partial<AppOptions> = {}) {
  const app = await build(t, options)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  return { app, baseUrl: `http://127.0.0.1:${port}/v1` }
}

/** A client of `baseUrl` with the test key and short retry delays; `options` override. */
export function clientOf (baseUrl: string, options: Partial<PetstoreClientOptions> = {}) {
  return createPetstoreClient({ baseUrl, apiKey: TEST_KEY, retry: { minDelayMs: 1, maxDelayMs: 5 }, ...options })
}

/** Every item an async iterable yields, in order. */
export async function collect<T> (items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = []
  for await (const item of items) all.push(item)
  return all
}
