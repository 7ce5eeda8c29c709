/**
 * `npm run bench`: the service against its ceiling, bare Fastify + better-sqlite3
 * (scripts/bench/baseline.ts), in one process tree on this machine.
 *
 * Both servers run as child processes on fresh SQLite files with the same settings, seeded
 * with the same pets. autocannon drives each scenario against each server in alternation,
 * several rounds, so machine noise hits both alike; the report gives median requests per
 * second and the service/baseline ratio.
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

function startServer (name: string, script: string) {
  // The rate limiter stays on, with a limit the load never reaches, so its cost is measured.
  return spawnServer(script, { LOG_LEVEL: 'warn', PETSTORE_API_KEYS: KEY, RATE_LIMIT_MAX: '1000000000', DATABASE_URL: join(dir, `${name}.db`) })
}

const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
const newPet = JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' })

async function seed (base: string) {
  for (let i = 0; i < SEED; i++) {
    const res = await fetch(`${base}/v1/pets`, { method: 'POST', headers, body: newPet })
    if (res.status !== 201) throw new Error(`seeding ${base} failed: ${res.status} ${await res.text()}`)
  }
}

const scenarios: Array<{ name: string, method: 'GET' | 'POST', path: string, body?: string }> = [
  { name: 'listPets (limit=20)', method: 'GET', path: '/v1/pets?limit=20' },
  { name: 'getPet', method: 'GET', path: '/v1/pets/500' },
  { name: 'createPet', method: 'POST', path: '/v1/pets', body: newPet }
]

async function measure (base: string, scenario: typeof scenarios[number], duration = seconds) {
  const result = await autocannon({
    url: base + scenario.path, method: scenario.method, headers, body: scenario.body, connections, duration
  })
  const failures = result.errors + result.timeouts + result.non2xx
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
  baseline: await startServer('baseline', 'scripts/bench/baseline.ts')
}
try {
  await seed(servers.service.base)
  await seed(servers.baseline.base)
  console.log(`${rounds} rounds of ${seconds}s per scenario and server, ${connections} connections, node ${process.version}\n`)
  console.log('| scenario | service req/s | baseline req/s | ratio (median of rounds) | service p99 ms | baseline p99 ms |')
  console.log('|---|---|---|---|---|---|')
  for (const scenario of scenarios) {
    // One discarded second each, so both are measured after the JIT has warmed up.
    await measure(servers.service.base, scenario, 1)
    await measure(servers.baseline.base, scenario, 1)
    const runs = { service: [] as Array<{ rps: number, p99: number }>, baseline: [] as Array<{ rps: number, p99: number }> }
    for (let round = 0; round < rounds; round++) {
      // Alternate which goes first, so a slow spell of the machine does not favour one.
      const order = round % 2 === 0 ? (['service', 'baseline'] as const) : (['baseline', 'service'] as const)
      for (const which of order) runs[which].push(await measure(servers[which].base, scenario))
    }
    const service = median(runs.service.map((run) => run.rps))
    const baseline = median(runs.baseline.map((run) => run.rps))
    // The ratio of each round's back-to-back pair, then their median: noise that lasts
    // longer than one pair hits both sides of it.
    const ratio = median(runs.service.map((run, round) => run.rps / runs.baseline[round]!.rps))
    console.log(`| ${scenario.name} | ${service.toFixed(0)} | ${baseline.toFixed(0)} | ${ratio.toFixed(2)} | ` +
      `${median(runs.service.map((run) => run.p99))} | ${median(runs.baseline.map((run) => run.p99))} |`)
  }
} finally {
  servers.service.child.kill('SIGTERM')
  servers.baseline.child.kill('SIGTERM')
  rmSync(dir, { recursive: true, force: true })
}
