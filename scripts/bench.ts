/**
 * `npm run bench`: the service measured from the outside against its peers, in one
 * process tree on this machine, as ratios:
 * - `express`: the same pet operations as an idiomatic Express 5 + better-sqlite3 service
 *   (scripts/bench/express.ts);
 * - `baseline`: bare Fastify + better-sqlite3, no validation, auth or headers
 *   (scripts/bench/baseline.ts);
 * - `ceiling`: Fastify sending a precomputed page behind a bearer check
 *   (scripts/bench/ceiling.ts), for the listing only, with the load generator's CPU beside
 *   it (the ceiling may be bound by the load generator rather than by the server).
 * Also: p50/p99 latency, each server's peak RSS, the start of `npm start` on a 1M-pet
 * database, and every read on 1M pets against 1k pets.
 *
 * The service runs as `npm start` runs it (the build in dist/, default settings but a rate
 * limit the load never reaches, so its cost is still counted). Servers are pinned to the
 * first core and the load generator (this process) to the second, where there are two.
 * Each scenario runs against each server in turn, several rounds, rotating the order, so
 * machine noise hits all alike; figures are medians of the rounds.
 *
 *   npm run bench -- [--seconds 5] [--rounds 3] [--connections 50] [--pets 10000]
 *                    [--small 1000] [--large 1000000] [--starts 3] [--unpinned]
 *                    [--only TEXT]
 * `--only` runs the scenarios whose name holds TEXT, against the peers they need, and
 * their scaling rows, but no start times: a quick look while working on one path.
 */
import { execFileSync, spawn } from 'node:child_process'
import { availableParallelism, cpus, totalmem } from 'node:os'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { loadConfig } from '../src/config/config.ts'
import { connect } from '../src/database/connect.ts'
import { migrateToLatest } from '../src/database/migrate.ts'
import { measure, median, type Result, type Scenario } from './bench/measure.ts'
import { seedPets } from './bench/seed.ts'
import { npmStart, spawnServer, type ServerProcess } from './lib/spawn-server.ts'

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
    pets: { type: 'string', default: '10000' },
    small: { type: 'string', default: '1000' },
    large: { type: 'string', default: '1000000' },
    starts: { type: 'string', default: '3' },
    unpinned: { type: 'boolean', default: false },
    only: { type: 'string' }
  }
})
const seconds = Number(values.seconds)
const rounds = Number(values.rounds)
const connections = Number(values.connections)
const pets = Number(values.pets)
const sizes = { small: Number(values.small), large: Number(values.large) }

const KEY = 'bench-key-not-a-secret-000000000'
// The service as `npm start` runs it: its script's node options, then its script (the build in dist/).
const { script: BUILT_SERVER, nodeArgs: START_OPTIONS } = npmStart()
const dir = mkdtempSync(join(tmpdir(), 'petstore-bench-'))

// Servers on the first core, the load generator on the second.
const cores = availableParallelism()
const pinned = !values.unpinned && cores >= 2 && hasTaskset()
const SERVER_CORES = pinned ? '0' : undefined
if (pinned) execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' })

function hasTaskset (): boolean {
  try { execFileSync('taskset', ['-V'], { stdio: 'ignore' }); return true } catch { return false }
}

const SERVICE_ENV = { PETSTORE_API_KEYS: KEY, RATE_LIMIT_MAX: '1000000000' }

/** The service's database, migrated and seeded before it starts, as a deployment's would be. */
async function serviceDatabase (name: string, count: number): Promise<string> {
  const file = join(dir, `${name}.db`)
  // The default settings, whatever this shell's environment says: the file is the bench's own.
  const db = await connect({ ...loadConfig({}).database, url: file })
  await migrateToLatest(db)
  await db.destroy()
  seedPets(file, count)
  return file
}

let started = 0
function start (script: string, env: Record<string, string>): Promise<ServerProcess> {
  const nodeArgs = script === BUILT_SERVER ? START_OPTIONS : []
  // Log lines to a file, as a deployment keeps them, not into a pipe this busy process drains.
  const logFile = join(dir, `server-${++started}.log`)
  return spawnServer(script, { ...SERVICE_ENV, ...env }, { cores: SERVER_CORES, logFile, nodeArgs })
}

/** A peer makes its own table at start; it is seeded right after. */
async function startPeer (name: string, script: string): Promise<ServerProcess> {
  const file = join(dir, `${name}.db`)
  const server = await start(script, { DATABASE_URL: file })
  seedPets(file, pets)
  return server
}

const headers = { authorization: `Bearer ${KEY}` }
const newPet = JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' })
const below = (count: number) => 1 + Math.floor(Math.random() * count)
// A cursor as the service makes them (an id, base64url): the page after a random pet.
const randomCursor = (count: number) => Buffer.from(String(below(count - 20))).toString('base64url')
// Pets 2, 6, 10 ... (`pending` in the seed): never on order, so any edit of them is allowed.
const unorderedPet = (count: number) => 4 * below(Math.floor(count / 4)) - 2

/** The orders placeOrders made: open, one per `available` pet. */
const orderIds: Array<number | string> = []
const randomOrder = () => orderIds[Math.floor(Math.random() * orderIds.length)]

/**
 * Orders to list: placed through the API, as a client would, one for each `available` pet
 * (every fourth pet of the seed, from pet 1), which takes it off sale.
 */
async function placeOrders (base: string, count: number) {
  for (let i = 1; i <= count; i++) {
    const res = await fetch(`${base}/v1/store/orders`, {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ petId: 4 * i - 3, quantity: 1 })
    })
    if (res.status !== 201) throw new Error(`placing orders failed: ${res.status} ${await res.text()}`)
    orderIds.push((await res.json() as { id: number | string }).id)
  }
}

// The tag of the first page, as a client that already holds it would send it back.
const currentTag = async (base: string) =>
  ({ 'if-none-match': (await fetch(`${base}/v1/pets?limit=20`, { headers })).headers.get('etag') ?? '' })

/** A key of the database (not of PETSTORE_API_KEYS) that may only read pets, as `npm run keys` makes it. */
let scopedKey = ''
const root = fileURLToPath(new URL('..', import.meta.url))
function createScopedKey (file: string): string {
  const printed = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/keys.ts', 'create', '--name', 'bench-reader', '--scopes', 'pets:read', '--json'], {
    cwd: root, env: { ...process.env, DATABASE_URL: file }, encoding: 'utf8'
  })
  return (JSON.parse(printed) as { key: string }).key
}

// Each edit a real change: a name, a ship date no request sent before.
let edits = 0
const rename = () => JSON.stringify({ name: `Rex ${++edits}` })
const reschedule = () => JSON.stringify({ shipDate: new Date(Date.UTC(2030, 0, 1) + ++edits * 1000).toISOString() })
const MERGE_PATCH = 'application/merge-patch+json'

type Peer = 'service' | 'uncached' | 'express' | 'baseline' | 'ceiling'

interface Row extends Scenario {
  peers: Peer[]
  goal?: string
  /** Measured again on the small and the large database. */
  scales?: boolean
  /** Sent with the scoped database key instead of the environment's. */
  scoped?: boolean
}

const rows: Row[] = [
  { name: 'GET /v1/pets?limit=20', path: () => '/v1/pets?limit=20', peers: ['service', 'uncached', 'express', 'baseline', 'ceiling'], goal: '≥ 2× express, ≥ 0.5× ceiling', scales: true },
  { name: 'GET /v1/pets?limit=100&status=sold', path: () => '/v1/pets?limit=100&status=sold', peers: ['service', 'uncached', 'express', 'baseline'], goal: '≥ 2× express', scales: true },
  { name: 'GET /v1/pets/{id}', path: (count) => `/v1/pets/${Math.ceil(count / 2)}`, peers: ['service', 'uncached', 'express', 'baseline'], goal: '≥ 2× express', scales: true },
  { name: 'POST /v1/pets', method: 'POST', path: () => '/v1/pets', body: newPet, peers: ['service', 'express', 'baseline'], goal: '≥ 1× express' },
  { name: 'GET /v1/pets/{id}, a random pet each time', path: (count) => `/v1/pets/${below(count)}`, peers: ['service', 'uncached', 'express', 'baseline'], scales: true },
  { name: 'GET /v1/pets?limit=20 after a random cursor', path: (count) => `/v1/pets?limit=20&cursor=${randomCursor(count)}`, peers: ['service', 'uncached'], scales: true },
  { name: 'GET /v1/pets?limit=20 revalidated (304)', path: () => '/v1/pets?limit=20', extra: currentTag, status: 304, peers: ['service', 'uncached'] },
  { name: 'POST /v1/pets with an Idempotency-Key', method: 'POST', path: () => '/v1/pets', body: newPet, uniqueKeys: true, peers: ['service'] },
  { name: 'GET /v1/store/orders?limit=20', path: () => '/v1/store/orders?limit=20', peers: ['service', 'uncached'] },
  // A pet is sold once, so a timed run of accepted orders would soon run out of pets: this
  // measures the order refused for a pet already on order (pet 1), the same transaction.
  { name: 'POST /v1/store/orders, the pet on order (409)', method: 'POST', path: () => '/v1/store/orders', body: JSON.stringify({ petId: 1, quantity: 1 }), status: 409, peers: ['service'] },
  { name: 'PATCH /v1/pets/{id}, a new name', method: 'PATCH', path: (count) => `/v1/pets/${unorderedPet(count)}`, body: rename, contentType: MERGE_PATCH, peers: ['service'] },
  { name: 'GET /v1/store/orders/{id}', path: () => `/v1/store/orders/${randomOrder()}`, peers: ['service', 'uncached'] },
  // A new ship date keeps the order open (completing it would sell its pet, once).
  { name: 'PATCH /v1/store/orders/{id}, a new ship date', method: 'PATCH', path: () => `/v1/store/orders/${randomOrder()}`, body: reschedule, contentType: MERGE_PATCH, peers: ['service'] },
  {
    name: 'GET /v1/pets?limit=20 with a scoped database key',
    path: () => '/v1/pets?limit=20',
    extra: async () => ({ authorization: `Bearer ${scopedKey}` }),
    scoped: true,
    peers: ['service', 'uncached']
  }
]

const chosen = values.only === undefined ? rows : rows.filter((row) => row.name.includes(values.only!))
if (chosen.length === 0) throw new Error(`no scenario's name holds ${JSON.stringify(values.only)}`)
const needed = new Set(chosen.flatMap((row) => row.peers))
// Rows measured again on the small and the large database.
const scaling = chosen.filter((row) => row.scales === true)

const options = (size: number) => ({ seconds, connections, headers, pets: size })

/**
 * Runs each row against each of its peers, `rounds` times, rotating who goes first.
 * `sizeOf` is the number of pets in each peer's database (the scaling rows differ).
 * `each` is told of every run, the warm-ups' included.
 */
async function compare (servers: Partial<Record<string, ServerProcess>>, row: Row, names: string[], sizeOf = (_name: string) => pets,
  each = (_name: string, _run: Result) => {}) {
  // One discarded second each, so all are measured after the JIT has warmed up.
  for (const name of names) each(name, await measure(servers[name]!.base, row, { ...options(sizeOf(name)), seconds: Math.min(1, seconds) }))
  const runs: Record<string, Result[]> = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]!)
    for (const name of order) {
      const run = await measure(servers[name]!.base, row, options(sizeOf(name)))
      each(name, run)
      runs[name]!.push(run)
    }
  }
  return runs
}

const rps = (runs: Result[]) => median(runs.map((run) => run.rps))
const p = (runs: Result[], which: 'p50' | 'p99') => median(runs.map((run) => run[which]))
// The ratio within each round, then their median: noise that lasts longer than one
// round hits both sides of it.
const ratio = (a: Result[], b: Result[]) => median(a.map((run, round) => run.rps / b[round]!.rps))

/** Peak resident memory of a process (VmHWM), in MiB. */
function peakRss (pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match === null ? Number.NaN : Number(match[1]) / 1024
}

/** From `npm start` to the first 200 of `GET /v1/pets`, on one core. */
async function startTime (file: string): Promise<number> {
  const began = performance.now()
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const command = SERVER_CORES === undefined ? ['npm', 'start'] : ['taskset', '-c', SERVER_CORES, 'npm', 'start']
  const child = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, ...SERVICE_ENV, DATABASE_URL: file, PORT: String(port), LOG_FORMAT: 'json' }, stdio: 'ignore', detached: true
  })
  try {
    for (;;) {
      const answer = await fetch(`http://127.0.0.1:${port}/v1/pets?limit=20`, { headers }).catch(() => undefined)
      if (answer?.status === 200) return (performance.now() - began) / 1000
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  } finally {
    process.kill(-child.pid!, 'SIGINT')
    await new Promise((resolve) => child.once('exit', resolve))
  }
}

const fixed = (value: number, digits = 0) => Number.isFinite(value) ? value.toFixed(digits) : '–'
const cell = (runs: Result[] | undefined) => runs === undefined ? '' : fixed(rps(runs))
const times = (runs: Result[], against: Result[] | undefined) => against === undefined ? '' : `${fixed(ratio(runs, against), 2)}×`
const loadCpu = (runs: Result[]) => `${fixed(median(runs.map((run) => run.loadCpu)))}%`

let finished = false
const servers: Partial<Record<Peer, ServerProcess>> = {}
const scaled: Partial<Record<'small' | 'large', ServerProcess>> = {}
try {
  const files = {
    main: chosen.length > 0 ? await serviceDatabase('service', pets) : '',
    small: scaling.length > 0 ? await serviceDatabase('small', sizes.small) : '',
    // Also the start times' database, measured in a full run.
    large: scaling.length > 0 || values.only === undefined ? await serviceDatabase('large', sizes.large) : ''
  }
  // Made before the service starts, in its database: it is loaded with the others.
  if (chosen.some((row) => row.scoped === true)) scopedKey = createScopedKey(files.main)
  const starts: number[] = []
  for (let i = 0; values.only === undefined && i < Number(values.starts); i++) starts.push(await startTime(files.large))

  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  const readP99s: number[] = []
  let rss: Record<string, number> = {}
  const slowdowns: number[] = []
  if (chosen.length > 0) {
    servers.service = await start(BUILT_SERVER, { DATABASE_URL: files.main })
    // The same service and database with the response cache off: what the cache buys.
    if (needed.has('uncached')) servers.uncached = await start(BUILT_SERVER, { DATABASE_URL: files.main, RESPONSE_CACHE_MB: '0' })
    if (needed.has('express')) servers.express = await startPeer('express', 'scripts/bench/express.ts')
    if (needed.has('baseline')) servers.baseline = await startPeer('baseline', 'scripts/bench/baseline.ts')
    if (needed.has('ceiling')) servers.ceiling = await start('scripts/bench/ceiling.ts', {})
    await placeOrders(servers.service.base, Math.min(200, Math.floor(pets / 4)))
  }

  console.log(`${cpu}, ${cores} cores, ${fixed(totalmem() / 2 ** 30)} GiB, node ${process.version}; ` +
    `${pinned ? 'servers on core 0, load on core 1' : 'not pinned'}; ${pets} pets, ${connections} connections, ` +
    `median of ${rounds} rounds of ${seconds} s\n`)
  if (chosen.length > 0) {
    console.log('| scenario | service req/s | no cache | express | baseline | ceiling | service / express | service / baseline | service / ceiling | service p50 / p99 ms | no cache p99 | express p99 | goal |')
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    const loadLines: string[] = []
    for (const row of chosen) {
      const runs = await compare(servers, row, row.peers)
      const service = runs.service!
      if ((row.method ?? 'GET') === 'GET' && row.status === undefined) readP99s.push(p(service, 'p99'))
      const p99 = (runs: Result[] | undefined) => runs === undefined ? '' : String(p(runs, 'p99'))
      console.log(`| ${row.name} | ${cell(service)} | ${cell(runs.uncached)} | ${cell(runs.express)} | ${cell(runs.baseline)} | ${cell(runs.ceiling)} | ` +
        `${times(service, runs.express)} | ${times(service, runs.baseline)} | ${times(service, runs.ceiling)} | ` +
        `${p(service, 'p50')} / ${p(service, 'p99')} | ${p99(runs.uncached)} | ${p99(runs.express)} | ${row.goal ?? ''} |`)
      // The ceiling may be the load generator's: this process, on its one core, beside it.
      if (runs.ceiling !== undefined) {
        loadLines.push(`load generator CPU during ${row.name} (this process, % of one core, median of the rounds): ` +
          `${loadCpu(service)} against the service, ${loadCpu(runs.ceiling)} against the ceiling (service / ceiling ${times(service, runs.ceiling)})`)
      }
    }
    for (const line of loadLines) console.log(`\n${line}`)
    rss = Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, peakRss(server.child.pid!)]))

    // Scaling is the database path's: with the cache on, a small table is served from memory
    // and a large one, read at random, mostly is not, which says nothing about the queries.
    if (scaling.length > 0) {
      scaled.small = await start(BUILT_SERVER, { DATABASE_URL: files.small, RESPONSE_CACHE_MB: '0' })
      scaled.large = await start(BUILT_SERVER, { DATABASE_URL: files.large, RESPONSE_CACHE_MB: '0' })
      console.log(`\n| read, no response cache | ${sizes.small} pets req/s | ${sizes.large} pets req/s | ${sizes.small} / ${sizes.large} | goal |`)
      console.log('|---|---|---|---|---|')
      for (const row of scaling) {
        // Both sizes in each round, as the peers above: the ratio is the median of the rounds'.
        // Each size gets paths that fit it (a random id among its own pets).
        const runs = await compare(scaled, row, ['small', 'large'], (name) => sizes[name as 'small' | 'large'])
        const slowdown = ratio(runs.small!, runs.large!)
        slowdowns.push(slowdown)
        console.log(`| ${row.name} | ${cell(runs.small)} | ${cell(runs.large)} | ${fixed(slowdown, 2)}× | ≤ 1.15× |`)
      }
    }
  }

  if (values.only !== undefined) {
    console.log(`\npeak RSS, MiB: ${Object.entries(rss).map(([name, mib]) => `${name} ${fixed(mib)}`).join(', ')}`)
  } else {
    console.log('\n| measure | service | goal |')
    console.log('|---|---|---|')
    console.log(`| p99 latency of the read scenarios | ${fixed(Math.min(...readP99s))}–${fixed(Math.max(...readP99s))} ms | ≤ 20 ms |`)
    console.log(`| peak RSS under that load | ${fixed(rss.service!)} MiB (no cache ${fixed(rss.uncached!)}, express ${fixed(rss.express!)}, baseline ${fixed(rss.baseline!)}, ceiling ${fixed(rss.ceiling!)}) | ≤ 120 MiB |`)
    console.log(`| \`npm start\` to the first 200, ${sizes.large} pets, one core | ${fixed(median(starts), 2)} s (runs: ${starts.map((s) => s.toFixed(2)).join(', ')}) | ≤ 1.0 s |`)
    console.log(`| every read at ${sizes.large} pets vs at ${sizes.small} | within ${fixed(Math.max(...slowdowns), 2)}× | ≤ 1.15× |`)
  }
  finished = true
} finally {
  for (const server of [...Object.values(servers), ...Object.values(scaled)]) server.child.kill('SIGTERM')
  // A failed run keeps the servers' logs (server-N.log) and databases, to see why.
  if (finished) rmSync(dir, { recursive: true, force: true })
  else console.error(`the servers' logs and databases are kept in ${dir}`)
}
