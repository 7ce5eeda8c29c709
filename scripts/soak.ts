/**
 * `npm run soak -- [--seconds 60] [--connections 20]`: holds the service at saturation with
 * mixed reads and writes (autocannon), then reports errors (there must be none), p99
 * latency over time and the server's RSS at the start and the end (it must level off).
 *
 * The load runs as back-to-back 5-second slices, so each slice has its own latency
 * figures; the server is one child process on a fresh SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { rss } from './lib/proc-stat.ts'
import { spawnServer } from './lib/spawn-server.ts'

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '60' }, connections: { type: 'string', default: '20' } } })
const seconds = Number(values.seconds)
const connections = Number(values.connections)
const SLICE = 5
const KEY = 'soak-key-not-a-real-secret-00000'
const dir = mkdtempSync(join(tmpdir(), 'petstore-soak-'))

const server = await spawnServer('src/server.ts', { LOG_LEVEL: 'warn', PETSTORE_API_KEYS: KEY, RATE_LIMIT_MAX: '0', DATABASE_URL: join(dir, 'soak.db') })
const { child, base } = server

const rssMb = () => rss(child.pid!)
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
const newPet = JSON.stringify({ name: 'Soak', categoryId: 1, status: 'available' })
// Two reads for each write, over three operations.
const requests = [
  { method: 'GET' as const, path: '/v1/pets?limit=20' },
  { method: 'POST' as const, path: '/v1/pets', body: newPet },
  { method: 'GET' as const, path: '/v1/pets/1' },
  { method: 'GET' as const, path: '/v1/pets?limit=100&status=available' }
]

let failures = 0
try {
  await fetch(`${base}/v1/pets`, { method: 'POST', headers, body: newPet })
  const rssStart = rssMb()
  console.log(`soak: ${seconds}s at ${connections} connections against ${base}; RSS at start ${rssStart.toFixed(1)} MB\n`)
  console.log('| second | req/s | p50 ms | p99 ms | errors | RSS MB |')
  console.log('|---|---|---|---|---|---|')
  const rss: number[] = []
  for (let elapsed = 0; elapsed < seconds; elapsed += SLICE) {
    const result = await autocannon({ url: base, headers, requests, connections, duration: SLICE })
    const errors = result.errors + result.timeouts + result.non2xx
    failures += errors
    rss.push(rssMb())
    console.log(`| ${elapsed + SLICE} | ${result.requests.average.toFixed(0)} | ${result.latency.p50} | ${result.latency.p99} | ${errors} | ${rss.at(-1)!.toFixed(1)} |`)
  }
  const half = rss[Math.floor(rss.length / 2)]!
  const end = rss.at(-1)!
  console.log(`\nerrors: ${failures}; RSS start ${rssStart.toFixed(1)} MB, middle ${half.toFixed(1)} MB, end ${end.toFixed(1)} MB`)
  // Growth in the second half beyond noise means memory that is never given back.
  if (failures > 0) throw new Error(`${failures} failed requests`)
  if (end > half * 1.25 + 10) throw new Error(`RSS kept growing: ${half.toFixed(1)} MB -> ${end.toFixed(1)} MB in the second half`)
  console.log('soak passed')
} catch (error) {
  console.error(`soak failed: ${(error as Error).message}`)
  process.exitCode = 1
} finally {
  child.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
}
