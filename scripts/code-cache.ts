/**
 * The last step of `npm run build`: V8's code cache for the bundle, dist/bundle.cjs.cache,
 * which dist/server.js compiles the bundle with (scripts/bundle-entry.js). The service is
 * started from the build as `npm start` starts it (its node options: V8 refuses a cache made
 * for other ones), on a database in memory, answers a few requests, and stops; the cache
 * written as it exits holds the code of its start and of those requests.
 */
import { once } from 'node:events'
import { existsSync, rmSync } from 'node:fs'
import { SETTINGS } from '../src/config/schema.ts'
import { npmStart, spawnServer } from './lib/spawn-server.ts'

const cache = new URL('../dist/bundle.cjs.cache', import.meta.url)
const cacheMade = new URL('../dist/bundle.cjs.cache.json', import.meta.url)
const KEY = 'code-cache-build-key-not-a-secret'
/**
 * None of the service's settings in the environment the build runs in: a REDIS_URL to
 * reach, a METRICS_PORT another instance holds, OTEL_* variables to trace with. Node's own
 * options stay: the cache is made for them, as `npm start` would run with them. An
 * undefined variable is left out of the child's environment.
 */
const cleared = Object.fromEntries(Object.keys(process.env)
  .filter((name) => SETTINGS.includes(name) || name.startsWith('OTEL_'))
  .map((name) => [name, undefined])) as unknown as Record<string, string>

rmSync(cache, { force: true })
rmSync(cacheMade, { force: true })
const { env, nodeArgs } = npmStart()
const server = await spawnServer('dist/server.js', {
  ...cleared, ...env, PETSTORE_WRITE_CODE_CACHE: '1', DATABASE_URL: ':memory:', PETSTORE_API_KEYS: KEY, HOST: '127.0.0.1'
}, { nodeArgs })
try {
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
  // The reads and the write a service is asked for first, and a refusal.
  for (const [method, path, body] of [
    ['POST', '/v1/pets', JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' })],
    ['GET', '/v1/pets?limit=20'], ['GET', '/v1/pets/1'], ['GET', '/v1/pets/0']
  ] as const) {
    await (await fetch(`${server.base}${path}`, { method, headers, body })).arrayBuffer()
  }
} finally {
  server.child.kill('SIGTERM')
  await once(server.child, 'exit')
}
if (!existsSync(cache) || !existsSync(cacheMade)) throw new Error(`the service did not write its code cache:\n${server.output()}`)
