/**
 * `npm run bench`: the service against its ceiling, bare Fastify + better-sqlite3
 * (scripts/bench/baseline.ts), in one process tree on this machine; and the service with
 * Prometheus metrics on (METRICS_PORT) against the service without, for what metrics cost.
 *
 * The servers run as child processes on fresh SQLite files with the same settings, seeded
 * with the same pets. autocannon drives each scenario against each server in turn, several
 * rounds, rotating the order, so machine noise hits all alike; the report gives median
 * requests per second and the ratios.
 *
 *   npm run bench -- [--seconds 5] [--rounds 5] [--connections 10]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { spawnServer } from './lib/spawn-server.ts'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' }
  }
})
const seconds = Number(values.seconds)
const rounds = Number(values.rounds)
const connections = Number(values.connections)

const KEY = 'bench-key-not-a-secret-000000000'
const SEED = 1000
const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-'))

function startServer (name: string, script: string, env: Record<string, string> = {}) {
  // The rate limiter stays on, with a limit the load never reaches, so its cost is measured.
  return spawnServer(script, { LOG_LEVEL: 'warn', PETSTORE_API_KEYS: KEY, RATE_LIMIT_MAX: '1000000000', DATABASE_URL: join(dir, `${name}.db`), ...env })
}

const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
const newPet = JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' })

async function seed (base: string) {
  for (let i = 0; i < SEED; i++) {
    const res = await fetch(`${base}/v1/pets`, { method: 'POST', headers, body: newPet })
    if (res.status !== 201) throw new Error(`seeding ${base} failed: ${res.status} ${await res.text()}`)
  }
}

interface Scenario {
  name: string
  method: 'GET' | 'POST'
  path: string
  body?: string
  /** Extra headers; the baseline ignores them, so these rows show what the feature costs. */
  extra?: (base: string) => Promise<Record<string, string>>
  /** A fresh Idempotency-Key on every request. */
  uniqueKeys?: boolean
  status?: number
}

// The tag of the first page, as a client that already holds it would send it back.
const currentTag = async (base: string) => ({ 'if-none-match': (await fetch(`${base}/v1/pets?limit=20`, { headers })).headers.get('etag') ?? '' })

const scenarios: Scenario[] = [
  { name: 'listPets (limit=20)', method: 'GET', path: '/v1/pets?limit=20' },
  { name: 'listPets, revalidated (If-None-Match: 304)', method: 'GET', path: '/v1/pets?limit=20', extra: currentTag, status: 304 },
  { name: 'getPet', method: 'GET', path: '/v1/pets/500' },
  { name: 'createPet', method: 'POST', path: '/v1/pets', body: newPet },
  { name: 'createPet with an Idempotency-Key', method: 'POST', path: '/v1/pets', body: newPet, uniqueKeys: true }
]

let keys = 0

async function measure (base: string, scenario: Scenario, duration = seconds) {
  const extra = await scenario.extra?.(base) ?? {}
  const result = await autocannon({
    url: base + scenario.path,
    method: scenario.method,
    headers: { ...headers, ...extra },
    body: scenario.body,
    connections,
    duration,
    ...(scenario.uniqueKeys === true && {
      requests: [{ setupRequest: (request: any) => ({ ...request, headers: { ...request.headers, 'idempotency-key': `bench-${++keys}` } }) }]
    })
  })
  // A 304 is what a revalidation should get (the baseline, which ignores the tag, sends 200s).
  const failures = result.errors + result.timeouts + result.non2xx - (scenario.status === 304 ? (result as any)['3xx'] ?? 0 : 0)
  if (failures > 0) throw new Error(`${scenario.name} on ${base}: ${failures} failed requests`)
  return { rps: result.requests.average, p99: result.latency.p99 }
}

const median = (numbers: number[]) => {
  const sorted = [...numbers].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

const servers = {
  service: await startServer('service', 'src/server.ts'),
  metrics: await startServer('metrics', 'src/server.ts', { METRICS_PORT: '0' }),
  baseline: await startServer('baseline', 'scripts/bench/baseline.ts')
}
type Target = keyof typeof servers
const targets = Object.keys(servers) as Target[]
try {
  for (const target of targets) await seed(servers[target].base)
  console.log(`${rounds} rounds of ${seconds}s per scenario and server, ${connections} connections, node ${process.version}\n`)
  console.log('| scenario | service req/s | baseline req/s | service / baseline | service p99 ms | baseline p99 ms | with metrics / without |')
  console.log('|---|---|---|---|---|---|---|')
  for (const scenario of scenarios) {
    // One discarded second each, so all are measured after the JIT has warmed up.
    for (const target of targets) await measure(servers[target].base, scenario, 1)
    const runs = Object.fromEntries(targets.map((target) => [target, [] as Array<{ rps: number, p99: number }>])) as Record<Target, Array<{ rps: number, p99: number }>>
    for (let round = 0; round < rounds; round++) {
      // Rotate which goes first, so a slow spell of the machine does not favour one.
      const order = targets.map((_, i) => targets[(i + round) % targets.length]!)
      for (const target of order) runs[target].push(await measure(servers[target].base, scenario))
    }
    const rps = (target: Target) => median(runs[target].map((run) => run.rps))
    const p99 = (target: Target) => median(runs[target].map((run) => run.p99))
    // The ratio within each round, then their median: noise that lasts longer than one
    // round hits both sides of it.
    const ratio = (a: Target, b: Target) => median(runs[a].map((run, round) => run.rps / runs[b][round]!.rps))
    console.log(`| ${scenario.name} | ${rps('service').toFixed(0)} | ${rps('baseline').toFixed(0)} | ${ratio('service', 'baseline').toFixed(2)} | ` +
      `${p99('service')} | ${p99('baseline')} | ${ratio('metrics', 'service').toFixed(2)} |`)
  }
} finally {
  for (const target of targets) servers[target].child.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
}
