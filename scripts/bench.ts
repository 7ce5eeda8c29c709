/**
 * `npm run bench`: the service measured from the outside against its peers, in one
 * process tree on this machine, as ratios:
 * - `express`: the same pet operations as an idiomatic Express 5 + better-sqlite3 service
 *   (scripts/bench/express.ts);
 * - `baseline`: bare Fastify + better-sqlite3, no validation, auth or headers
 *   (scripts/bench/baseline.ts);
 * - `ceiling`: Fastify sending a precomputed page behind a bearer check
 *   (scripts/bench/ceiling.ts), for the listing only, with the load generator's CPU beside
 *   it (the ceiling may be bound by the load generator rather than by the server), and
 *   what the behaviours the ceiling lacks cost the listing (the service again without its
 *   request log line, its per-key rate limit, and both);
 * - on PostgreSQL, `express-pg`: the same pet operations as an idiomatic Express 5 +
 *   `pg.Pool` service (scripts/bench/express-pg.ts), each server on a database of its own,
 *   with the transactions (pg_stat_database) and round trips (scripts/bench/pg-counter.ts)
 *   each request costs. Skipped, saying why, when no PostgreSQL answers at
 *   TEST_POSTGRES_URL (postgres://postgres@127.0.0.1:5432/postgres by default); the bench's
 *   databases there are dropped at the end, whatever happens.
 * Besides one request repeated, each set of peers gets a mixed row, traffic as it comes:
 * 60% one random pet, 20% a listing by a random status, 20% creates, drawn with a fixed seed
 * so that every run sends the same requests (scripts/bench/mix.ts; `--only mixed`).
 * Also: p50/p99 latency, each server's peak RSS, the start of `npm start` on a 1M-pet
 * database, every read on 1M pets against 1k pets, and what one subscribed webhook endpoint
 * costs the creates, with the deliveries a second and the lag from commit to receipt
 * (`--only webhook` for those alone), and what tracing costs, off and on (`--only tracing`).
 *
 * The service runs as `npm start` runs it (the build in dist/, default settings but a rate
 * limit the load never reaches, so its cost is still counted). Servers are pinned to the
 * first core and the load generator (this process) to the second, where there are two.
 * Each scenario runs against each server in turn, several rounds, rotating the order, so
 * machine noise hits all alike; figures are medians of the rounds, and under each table the
 * lowest and highest of the rounds' own ratios for each goal.
 *
 *   npm run bench -- [--seconds 5] [--rounds 3] [--connections 50] [--pets 10000]
 *                    [--small 1000] [--large 1000000] [--starts 3] [--unpinned]
 *                    [--only TEXT] [--before DIR] [--help]
 * `--before DIR` measures the creates, with their events, beside the same creates on the
 * service as it was before events, and the tracing rows and the start beside it too: DIR is
 * a checkout of an earlier service, built (`git worktree add DIR fec3d11 && cd DIR && npm ci`). `--only` runs the scenarios whose name holds TEXT, against the peers they need, and
 * their scaling rows, but no start times unless TEXT names them: a quick look while
 * working on one path (`--only "on PostgreSQL"`: the PostgreSQL rows alone; `--only "npm
 * start" --before DIR`: the start beside an earlier build's, alternated).
 */
import { execFileSync, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { availableParallelism, cpus, totalmem } from 'node:os'
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import pg from 'pg'
import { loadConfig } from '../src/config/config.ts'
import { connect } from '../src/database/connect.ts'
import { migrateToLatest } from '../src/database/migrate.ts'
import { measure, median, type Result, type Scenario } from './bench/measure.ts'
import { countingProxy, type PgCounter } from './bench/pg-counter.ts'
import { seedPets, seedPostgresPets } from './bench/seed.ts'
import { percentile, startBenchReceiver, steadyPosts, type BenchReceiver } from './bench/webhooks.ts'
import { startOtlpSink } from './bench/otlp-sink.ts'
import { trafficMix } from './bench/mix.ts'
import { setupFetch } from './bench/setup-fetch.ts'
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
    only: { type: 'string' },
    before: { type: 'string' },
    help: { type: 'boolean', default: false }
  }
})
if (values.help) {
  // The usage, from this file's own header.
  const header = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('*/')[0]!
  console.log(header.replace(/^\/\*\*\n/, '').split('\n').map((line) => line.replace(/^ \* ?/, '')).join('\n').trim())
  process.exit(0)
}
const seconds = Number(values.seconds)
const rounds = Number(values.rounds)
const connections = Number(values.connections)
const pets = Number(values.pets)
const sizes = { small: Number(values.small), large: Number(values.large) }

// --before: the start script of another checkout, checked before anything is measured.
if (values.before !== undefined && !existsSync(join(resolve(values.before), 'dist/server.js'))) {
  throw new Error(`--before ${values.before}: no build there (dist/server.js): run npm ci in it`)
}

const KEY = 'bench-key-not-a-secret-000000000'
// The service as `npm start` runs it: its environment, its script's node options, then its script (the build in dist/).
const { script: BUILT_SERVER, nodeArgs: START_OPTIONS, env: START_ENV } = npmStart()
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
  // This checkout's build, or another's (--before).
  const built = script === BUILT_SERVER || script.endsWith('/scripts/start.js')
  // Log lines to a file, as a deployment keeps them, not into a pipe this busy process drains.
  const logFile = join(dir, `server-${++started}.log`)
  return spawnServer(script, { ...SERVICE_ENV, ...(built && START_ENV), ...env }, { cores: SERVER_CORES, logFile, nodeArgs: built ? START_OPTIONS : [] })
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
    const res = await setupFetch(`${base}/v1/store/orders`, {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ petId: 4 * i - 3, quantity: 1 })
    })
    if (res.status !== 201) throw new Error(`placing orders failed: ${res.status} ${await res.text()}`)
    orderIds.push((await res.json() as { id: number | string }).id)
  }
}

// The tag of the first page, as a client that already holds it would send it back.
const currentTag = async (base: string) =>
  ({ 'if-none-match': (await setupFetch(`${base}/v1/pets?limit=20`, { headers })).headers.get('etag') ?? '' })

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

type Peer = 'service' | 'uncached' | 'express' | 'baseline' | 'ceiling' | 'express-pg'

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
  { name: 'POST /v1/pets', method: 'POST', path: () => '/v1/pets', body: newPet, peers: ['service', 'express', 'baseline'], goal: '≥ 1.5× express' },
  { name: 'GET /v1/pets/{id}, a random pet each time', path: (count) => `/v1/pets/${below(count)}`, varies: true, peers: ['service', 'uncached', 'express', 'baseline'], scales: true },
  { name: 'mixed: 60% GET /v1/pets/{id}, 20% GET /v1/pets?status=, 20% POST /v1/pets', path: () => '/', mix: (count) => trafficMix(count, newPet), peers: ['service', 'uncached', 'express', 'baseline'], goal: '≥ 2× express, p99 ≤ 20 ms' },
  { name: 'GET /v1/pets?limit=20 after a random cursor', path: (count) => `/v1/pets?limit=20&cursor=${randomCursor(count)}`, varies: true, peers: ['service', 'uncached'], scales: true },
  { name: 'GET /v1/pets?limit=20 revalidated (304)', path: () => '/v1/pets?limit=20', extra: currentTag, status: 304, peers: ['service', 'uncached'] },
  { name: 'POST /v1/pets with an Idempotency-Key', method: 'POST', path: () => '/v1/pets', body: newPet, uniqueKeys: true, peers: ['service'] },
  { name: 'GET /v1/store/orders?limit=20', path: () => '/v1/store/orders?limit=20', peers: ['service', 'uncached'] },
  // A pet is sold once, so a timed run of accepted orders would soon run out of pets: this
  // measures the order refused for a pet already on order (pet 1), the same transaction.
  { name: 'POST /v1/store/orders, the pet on order (409)', method: 'POST', path: () => '/v1/store/orders', body: JSON.stringify({ petId: 1, quantity: 1 }), status: 409, peers: ['service'] },
  { name: 'PATCH /v1/pets/{id}, a new name', method: 'PATCH', path: (count) => `/v1/pets/${unorderedPet(count)}`, varies: true, body: rename, contentType: MERGE_PATCH, peers: ['service'] },
  { name: 'GET /v1/store/orders/{id}', path: () => `/v1/store/orders/${randomOrder()}`, varies: true, peers: ['service', 'uncached'] },
  // A new ship date keeps the order open (completing it would sell its pet, once).
  { name: 'PATCH /v1/store/orders/{id}, a new ship date', method: 'PATCH', path: () => `/v1/store/orders/${randomOrder()}`, varies: true, body: reschedule, contentType: MERGE_PATCH, peers: ['service'] },
  // The feed: a full page of the events the writes above made, from the start.
  { name: 'GET /v1/events?limit=100', path: () => '/v1/events?limit=100', peers: ['service', 'uncached'] },
  {
    name: 'GET /v1/pets?limit=20 with a scoped database key',
    path: () => '/v1/pets?limit=20',
    extra: async () => ({ authorization: `Bearer ${scopedKey}` }),
    scoped: true,
    peers: ['service', 'uncached']
  }
]

// The pet operations again, each server on a PostgreSQL database of its own.
const pgRows: Row[] = [
  { name: 'mixed: 60% GET /v1/pets/{id}, 20% GET /v1/pets?status=, 20% POST /v1/pets on PostgreSQL', path: () => '/', mix: (count) => trafficMix(count, newPet), peers: ['service', 'express-pg'], goal: '≥ 1.5× express-pg' },
  { name: 'GET /v1/pets?limit=20 on PostgreSQL', path: () => '/v1/pets?limit=20', peers: ['service', 'express-pg'], goal: '≥ 1.5× express-pg' },
  { name: 'GET /v1/pets?limit=100&status=sold on PostgreSQL', path: () => '/v1/pets?limit=100&status=sold', peers: ['service', 'express-pg'], goal: '≥ 1.5× express-pg' },
  { name: 'GET /v1/pets/{id} on PostgreSQL', path: (count) => `/v1/pets/${Math.ceil(count / 2)}`, peers: ['service', 'express-pg'], goal: '≥ 1.5× express-pg' },
  { name: 'GET /v1/pets/{id}, a random pet each time on PostgreSQL', path: (count) => `/v1/pets/${below(count)}`, varies: true, peers: ['service', 'express-pg'], goal: '≥ 1.5× express-pg' },
  { name: 'POST /v1/pets on PostgreSQL', method: 'POST', path: () => '/v1/pets', body: newPet, peers: ['service', 'express-pg'], goal: '≥ 2× express-pg' }
]

// Creates, their events delivered to one subscribed endpoint, beside the same creates without
// (on SQLite, then PostgreSQL): see webhookRows.
const webhookRow: Row = { name: 'POST /v1/pets with one subscribed webhook endpoint', method: 'POST', path: () => '/v1/pets', body: newPet, peers: [], goal: '≥ 0.75× none; lag p99 ≤ 1000 ms' }

const chosen = values.only === undefined ? rows : rows.filter((row) => row.name.includes(values.only!))
const pgChosen = values.only === undefined ? pgRows : pgRows.filter((row) => row.name.includes(values.only!))
const webhooksChosen = values.only === undefined || webhookRow.name.includes(values.only)
const tracingRows: Row[] = [
  { name: 'GET /v1/pets?limit=20 with tracing', path: () => '/v1/pets?limit=20', peers: [], goal: 'off: within noise of before' },
  { name: 'POST /v1/pets with tracing', method: 'POST', path: () => '/v1/pets', body: newPet, peers: [], goal: 'off: within noise of before' }
]
const tracingChosen = values.only === undefined ? tracingRows : tracingRows.filter((row) => row.name.includes(values.only!))
const START_MEASURE = '`npm start` to the first 200'
const startsChosen = values.only === undefined || START_MEASURE.includes(values.only)
if (chosen.length === 0 && pgChosen.length === 0 && !webhooksChosen && tracingChosen.length === 0 && !startsChosen) throw new Error(`no scenario's name holds ${JSON.stringify(values.only)}`)
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
  each = (_name: string, _run: Result) => {}, before = (_name: string): void | Promise<void> => {}) {
  // One discarded second each, so all are measured after the JIT has warmed up.
  for (const name of names) {
    await before(name)
    each(name, await measure(servers[name]!.base, row, { ...options(sizeOf(name)), seconds: Math.min(1, seconds) }))
  }
  const runs: Record<string, Result[]> = Object.fromEntries(names.map((name) => [name, []]))
  for (let round = 0; round < rounds; round++) {
    const order = names.map((_, i) => names[(i + round) % names.length]!)
    for (const name of order) {
      await before(name)
      const run = await measure(servers[name]!.base, row, options(sizeOf(name)))
      each(name, run)
      runs[name]!.push(run)
    }
  }
  return runs
}

const rps = (runs: Result[]) => median(runs.map((run) => run.rps))
const p = (runs: Result[], which: 'p50' | 'p99') => median(runs.map((run) => run[which]))
/** The ratio of `a`'s rate to `b`'s within each round. */
const roundRatios = (a: Result[], b: Result[]) => a.map((run, round) => run.rps / b[round]!.rps)
// The ratio within each round, then their median: noise that lasts longer than one
// round hits both sides of it.
const ratio = (a: Result[], b: Result[]) => median(roundRatios(a, b))
/**
 * The lowest and highest of the rounds' own ratios, `1.88–2.01×`: how far a median near its
 * goal may be from it by noise alone.
 */
const spread = (a: Result[], b: Result[]) => {
  const ratios = roundRatios(a, b)
  return `${fixed(Math.min(...ratios), 2)}–${fixed(Math.max(...ratios), 2)}×`
}
/** After a table: the rounds' spread of each ratio a goal names (`spread`). */
const printSpreads = (spreads: string[]) => {
  if (spreads.length === 0) return
  console.log(`\nthe rounds' own ratios, lowest–highest, for the goals: ${spreads.join('; ')}`)
}

/** Peak resident memory of a process (VmHWM), in MiB. */
function peakRss (pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return match === null ? Number.NaN : Number(match[1]) / 1024
}

/** From `npm start` (in the project at `cwd`, this one by default) to the first 200 of `GET /v1/pets`, on one core. */
async function startTime (file: string, cwd?: string): Promise<number> {
  const began = performance.now()
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const command = SERVER_CORES === undefined ? ['npm', 'start'] : ['taskset', '-c', SERVER_CORES, 'npm', 'start']
  const child = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, ...SERVICE_ENV, DATABASE_URL: file, PORT: String(port), LOG_FORMAT: 'json' }, stdio: 'ignore', detached: true, cwd
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

// PostgreSQL: the server the bench makes its databases on, and what it made there.
const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const pgPrefix = `petstore_bench_${randomBytes(4).toString('hex')}`
const pgDatabases: string[] = []
let admin: pg.Client | undefined
const pgServers: Partial<Record<Peer, ServerProcess>> = {}
/** The servers of the events' cost rows (`--before`). */
const costServers: Partial<Record<'service' | 'before', ServerProcess>> = {}
const webhookServers: Partial<Record<'subscribed' | 'none', ServerProcess>> = {}
const tracingServers: Partial<Record<'off' | 'on' | 'before', ServerProcess>> = {}
const counters: PgCounter[] = []
const EXPRESS_PG = 'scripts/bench/express-pg.ts'
/** Requests counted on the wire, per row and server, for the round trips. */
const COUNTED_REQUESTS = 100

/** The URL, its password hidden, for a message. */
function shown (url: string): string {
  const parsed = new URL(url)
  if (parsed.password !== '') parsed.password = '***'
  return parsed.toString()
}

/** A connection to the server's admin database, or why there is none. */
async function openAdmin (): Promise<pg.Client | string> {
  const client = new pg.Client({ connectionString: POSTGRES_URL, connectionTimeoutMillis: 3000 })
  try {
    await client.connect()
  } catch (error) {
    // A server that answers and refuses (a password, a missing role) is a mistake to fix, not a laptop without PostgreSQL.
    if (error instanceof pg.DatabaseError) throw new Error(`PostgreSQL at ${shown(POSTGRES_URL)} refused the benchmark: ${error.message}`)
    return `PostgreSQL does not answer at ${shown(POSTGRES_URL)} (set TEST_POSTGRES_URL): ${(error as Error).message}`
  }
  // An error after the connection (the server going away mid-run) fails the query that meets it.
  client.on('error', () => {})
  return client
}

/** A fresh database on that server, dropped at the end; returns its URL. */
async function createPgDatabase (suffix: string): Promise<{ name: string, url: string }> {
  const name = `${pgPrefix}_${suffix}`
  await admin!.query(`create database ${name}`)
  pgDatabases.push(name)
  const url = new URL(POSTGRES_URL)
  url.pathname = `/${name}`
  return { name, url: url.toString() }
}

/** A fresh database for the service, migrated before it starts, as a deployment's would be. */
async function servicePgDatabase (suffix: string): Promise<{ name: string, url: string }> {
  const made = await createPgDatabase(suffix)
  const db = await connect({ ...loadConfig({}).database, url: made.url })
  await migrateToLatest(db)
  await db.destroy()
  return made
}

/** How long the statistics collector may take to show a report, before PostgreSQL 15 (from 15 there is none). */
let collectorDelayMs = 0

/**
 * xact_commit of each database, once every connection to them has closed: a connection
 * reports its transactions when it closes, but while open, and idle, up to ten seconds
 * late (PostgreSQL 15 reports an idle connection's counts at most every 10 s).
 */
async function commits (names: string[]): Promise<Record<string, number>> {
  for (let waited = 0; ; waited += 20) {
    const { rows } = await admin!.query<{ count: string }>(
      "select count(*) from pg_stat_activity where datname = any($1) and backend_type = 'client backend'", [names])
    if (rows[0]!.count === '0') break
    if (waited > 30_000) throw new Error(`connections to ${names.join(', ')} are still open`)
    await sleep(20)
  }
  await sleep(collectorDelayMs)
  // A fresh snapshot of the statistics, not the one this session may have cached.
  await admin!.query('select pg_stat_clear_snapshot()')
  const { rows } = await admin!.query<{ datname: string, xact_commit: string }>(
    'select datname, xact_commit from pg_stat_database where datname = any($1)', [names])
  return Object.fromEntries(rows.map((row) => [row.datname, Number(row.xact_commit)]))
}

/**
 * Starts the service and the peer at once, each on its database (`urls`), into `into`
 * (where the clean-up finds them, should the other fail to start).
 */
async function startOnPostgres (urls: Partial<Record<Peer, string>>, into: Partial<Record<Peer, ServerProcess>>): Promise<void> {
  const scripts: Partial<Record<Peer, string>> = { service: BUILT_SERVER, 'express-pg': EXPRESS_PG }
  const peers = Object.keys(urls) as Peer[]
  const started = await Promise.allSettled(peers.map((peer) => start(scripts[peer]!, { DATABASE_URL: urls[peer]! })))
  started.forEach((outcome, i) => { if (outcome.status === 'fulfilled') into[peers[i]!] = outcome.value })
  for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason
}

async function stop (server: ServerProcess): Promise<void> {
  if (server.child.exitCode !== null || server.child.signalCode !== null) return
  server.child.kill('SIGTERM')
  await new Promise((resolve) => server.child.once('exit', resolve))
}

/** Round trips per request to PostgreSQL, over sequential requests to a server whose connections go through `counter`. */
async function roundTrips (base: string, row: Row, counter: PgCounter): Promise<number> {
  const before = counter.counts().roundTrips
  const draw = row.mix?.(pets)
  for (let i = 0; i < COUNTED_REQUESTS; i++) {
    const drawn = draw?.()
    const body = drawn !== undefined ? drawn.body : typeof row.body === 'function' ? row.body() : row.body
    const answer = await fetch(base + (drawn?.path ?? row.path(pets)), {
      method: drawn?.method ?? row.method ?? 'GET',
      headers: { ...headers, ...(body !== undefined && { 'content-type': row.contentType ?? 'application/json' }) },
      body
    })
    await answer.arrayBuffer()
    if (row.status === undefined ? !answer.ok : answer.status !== row.status) throw new Error(`${row.name} on ${base}: answered ${answer.status}`)
  }
  return (counter.counts().roundTrips - before) / COUNTED_REQUESTS
}

/** The PostgreSQL rows: their own table, or the line saying why they were skipped. */
async function postgresRows (): Promise<void> {
  const opened = await openAdmin()
  if (typeof opened === 'string') {
    console.log(`\nPostgreSQL rows skipped: ${opened}`)
    return
  }
  admin = opened
  const version = (await admin.query<{ server_version: string }>('show server_version')).rows[0]!.server_version
  const versionNumber = Number((await admin.query<{ server_version_num: string }>('show server_version_num')).rows[0]!.server_version_num)
  if (versionNumber < 150000) collectorDelayMs = 1000

  // The service's database migrated before it starts, as a deployment's would be; the
  // peer's made by the peer; both then seeded with the same pets.
  const serviceDb = await servicePgDatabase('service')
  await seedPostgresPets(serviceDb.url, pets)
  const peerDb = await createPgDatabase('express')
  await stop(await start(EXPRESS_PG, { DATABASE_URL: peerDb.url }))
  await seedPostgresPets(peerDb.url, pets)
  const database: Partial<Record<Peer, string>> = { service: serviceDb.name, 'express-pg': peerDb.name }
  const names = [serviceDb.name, peerDb.name]

  // Round trips, counted on a second instance of each server connected through a counting
  // proxy of its own (both at once), before the timed runs, which the proxy, in this
  // process, would slow.
  const trips: Record<string, Partial<Record<Peer, number>>> = {}
  const counted: Partial<Record<Peer, ServerProcess>> = {}
  try {
    const counter: Partial<Record<Peer, PgCounter>> = {}
    for (const [peer, url] of [['service', serviceDb.url], ['express-pg', peerDb.url]] as const) {
      counter[peer] = await countingProxy(url)
      counters.push(counter[peer])
    }
    await startOnPostgres({ service: counter.service!.through(serviceDb.url), 'express-pg': counter['express-pg']!.through(peerDb.url) }, counted)
    for (const row of pgChosen) {
      const perRequest = await Promise.all(row.peers.map((peer) => roundTrips(counted[peer]!.base, row, counter[peer]!)))
      trips[row.name] = Object.fromEntries(row.peers.map((peer, i) => [peer, perRequest[i]!]))
    }
  } finally {
    for (const server of Object.values(counted)) await stop(server)
    for (const counter of counters.splice(0)) await counter.close()
  }

  const { hostname, port } = new URL(POSTGRES_URL)
  console.log(`\nPostgreSQL ${version} at ${hostname}:${port || 5432} (not pinned), ${pets} pets in each server's database; transactions per request: ` +
    `xact_commit in pg_stat_database over the row's runs, warm-ups included; round trips per request: counted on the wire over ${COUNTED_REQUESTS} sequential requests\n`)
  console.log('| scenario | service req/s | express-pg | service / express-pg | service p50 / p99 ms | express-pg p99 | transactions / request, service / express-pg | round trips / request, service / express-pg | goal |')
  console.log('|---|---|---|---|---|---|---|---|---|')
  // Each row on servers started for it and stopped after it, so that every transaction of
  // its runs has been reported when the counters are read.
  let before = await commits(names)
  const rss: Partial<Record<Peer, number>> = {}
  const spreads: string[] = []
  for (const row of pgChosen) {
    await startOnPostgres({ service: serviceDb.url, 'express-pg': peerDb.url }, pgServers)
    const sent: Partial<Record<Peer, number>> = {}
    const runs = await compare(pgServers, row, row.peers, undefined, (peer, run) => { sent[peer as Peer] = (sent[peer as Peer] ?? 0) + run.requests })
    for (const peer of row.peers) {
      rss[peer] = Math.max(rss[peer] ?? 0, peakRss(pgServers[peer]!.child.pid!))
      await stop(pgServers[peer]!)
    }
    const after = await commits(names)
    const xacts = Object.fromEntries(row.peers.map((peer) => [peer, fixed((after[database[peer]!]! - before[database[peer]!]!) / sent[peer]!, 2)]))
    before = after
    const service = runs.service!
    const express = runs['express-pg']!
    console.log(`| ${row.name} | ${cell(service)} | ${cell(express)} | ${times(service, express)} | ${p(service, 'p50')} / ${p(service, 'p99')} | ${p(express, 'p99')} | ` +
      `${xacts.service} / ${xacts['express-pg']} | ${fixed(trips[row.name]!.service!, 2)} / ${fixed(trips[row.name]!['express-pg']!, 2)} | ${row.goal ?? ''} |`)
    if (row.goal !== undefined) spreads.push(`${row.name} ${spread(service, express)} express-pg`)
  }
  printSpreads(spreads)
  console.log(`\npeak RSS on PostgreSQL, MiB: service ${fixed(rss.service!)}, express-pg ${fixed(rss['express-pg']!)}`)
}

/**
 * What the behaviours that the ceiling lacks cost the cached listing: the service again with
 * its request log line off (`LOG_LEVEL=warn`), its per-key rate limit off
 * (`RATE_LIMIT_MAX=0`), and both, in the same rounds as the service and the ceiling. With
 * each server saturating its core, a request's time is the inverse of the rate, so a
 * behaviour's share of the service's time is 1 - service / service without it. Started
 * for this alone and stopped after, so they weigh on no other row.
 */
async function behaviourCosts (file: string): Promise<void> {
  const listing = rows[0]!
  const without: Record<string, Record<string, string>> = {
    'no log line': { LOG_LEVEL: 'warn' },
    'no per-key limit': { RATE_LIMIT_MAX: '0' },
    neither: { LOG_LEVEL: 'warn', RATE_LIMIT_MAX: '0' }
  }
  for (const [name, env] of Object.entries(without)) variants[name] = await start(BUILT_SERVER, { DATABASE_URL: file, ...env })
  const names = ['service', 'ceiling', ...Object.keys(without)]
  const runs = await compare({ ...servers, ...variants }, listing, names)
  console.log(`\n| ${listing.name}: the service without | req/s | × ceiling | share of the service's time |`)
  console.log('|---|---|---|---|')
  console.log(`| (nothing: the service) | ${cell(runs.service)} | ${times(runs.service!, runs.ceiling)} | |`)
  for (const name of Object.keys(without)) {
    const share = 1 - ratio(runs.service!, runs[name]!)
    console.log(`| ${name} | ${cell(runs[name])} | ${times(runs[name]!, runs.ceiling)} | ${fixed(share * 100)}% |`)
  }
  for (const name of Object.keys(without)) {
    await stop(variants[name]!)
    delete variants[name]
  }
}

let cleaned: Promise<void> | undefined
/** Stops every server and drops the PostgreSQL databases; once, on success, failure or an interrupt. */
function cleanUp (): Promise<void> {
  cleaned ??= (async () => {
    const all = [...Object.values(servers), ...Object.values(variants), ...Object.values(scaled), ...Object.values(pgServers), ...Object.values(costServers), ...Object.values(webhookServers), ...Object.values(tracingServers)]
    for (const server of all) server.child.kill('SIGTERM')
    // Their connections must be gone before their databases: `with (force)` ends any left.
    for (const counter of counters) await counter.close()
    for (const name of pgDatabases) {
      await admin!.query(`drop database if exists ${name} with (force)`).catch((error: Error) =>
        console.error(`could not drop the PostgreSQL database ${name}: ${error.message}`))
    }
    await admin?.end().catch(() => {})
  })()
  return cleaned
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { cleanUp().finally(() => process.exit(130)).catch(() => {}) })
}

/**
 * Pets seeded available for the orders of the events' cost rows: one a request, never one
 * twice on a server (each has a database of its own), enough for 25 000 orders a second
 * over every run of the row.
 */
const ORDERABLE = Math.ceil((rounds * seconds + Math.min(1, seconds)) * 25_000)
const ordered: Record<string, number> = {}
let ordering = ''
function orderNext (): string {
  ordered[ordering] = (ordered[ordering] ?? 0) + 1
  return JSON.stringify({ petId: ordered[ordering] })
}
const costRows = (suffix: string): Row[] => [
  { name: `POST /v1/pets${suffix}`, method: 'POST', path: () => '/v1/pets', body: newPet, peers: [], goal: '≥ 0.8× before' },
  { name: `POST /v1/store/orders${suffix}, a pet each`, method: 'POST', path: () => '/v1/store/orders', body: orderNext, peers: [], goal: '≥ 0.8× before' }
]

/** The earlier build's (`--before`) start script. */
const beforeScript = () => join(resolve(values.before!), 'scripts/start.js')

/**
 * The database `url` for the earlier build (`--before`): the build started once to make
 * its own tables (its migrations are not this checkout's), stopped, and `seed` run.
 */
async function beforeDatabase (url: string, seed: () => void | Promise<void>): Promise<void> {
  await stop(await start(beforeScript(), { DATABASE_URL: url }))
  await seed()
}

/** The earlier build (`--before`) on the database `url`, made by `beforeDatabase`. */
async function startBefore (url: string, seed: () => void | Promise<void>): Promise<ServerProcess> {
  await beforeDatabase(url, seed)
  return await start(beforeScript(), { DATABASE_URL: url })
}

/**
 * What events cost the writes that make them: a create (`pet.created`) and an order placed
 * (`order.placed` and its pet's `pet.updated`), each measured beside the same request to
 * the service as it was before events (`--before`), on SQLite and on PostgreSQL, each server
 * on a database of its own holding the same pets, all available.
 */
async function eventCost (): Promise<void> {
  const measureBoth = async (rows: Row[]) => {
    for (const row of rows) {
      for (const name of Object.keys(ordered)) delete ordered[name]
      const runs = await compare(costServers, row, ['service', 'before'], undefined, undefined, (name) => { ordering = name })
      console.log(`| ${row.name} | ${cell(runs.service)} | ${cell(runs.before)} | ${times(runs.service!, runs.before)} | ${row.goal ?? ''} |`)
    }
    for (const server of Object.values(costServers)) await stop(server!)
  }
  console.log('\n| write, with its events, beside the service before events | service req/s | before req/s | service / before | goal |')
  console.log('|---|---|---|---|---|')
  const files = { service: await serviceDatabase('cost-service', 0), before: join(dir, 'cost-before.db') }
  seedPets(files.service, ORDERABLE, { available: true })
  costServers.service = await start(BUILT_SERVER, { DATABASE_URL: files.service })
  costServers.before = await startBefore(files.before, () => seedPets(files.before, ORDERABLE, { available: true }))
  await measureBoth(costRows(''))

  const opened = admin ?? await openAdmin()
  if (typeof opened === 'string') {
    console.log(`\nPostgreSQL rows of the events' cost skipped: ${opened}`)
    return
  }
  admin = opened
  const serviceDb = await servicePgDatabase('cost_service')
  const beforeDb = await createPgDatabase('cost_before')
  await seedPostgresPets(serviceDb.url, ORDERABLE, { available: true })
  costServers.service = await start(BUILT_SERVER, { DATABASE_URL: serviceDb.url })
  costServers.before = await startBefore(beforeDb.url, async () => seedPostgresPets(beforeDb.url, ORDERABLE, { available: true }))
  await measureBoth(costRows(' on PostgreSQL'))
}

/**
 * What tracing costs, on SQLite: the cached listing and a create with tracing off (the
 * default: no OTEL_* variable) and on (every request sampled, its spans sent to an OTLP
 * sink in this process), and, with `--before`, beside the service as it was before
 * tracing existed: what tracing off costs.
 */
async function tracingCost (rows: Row[]): Promise<void> {
  const sink = await startOtlpSink()
  const names: Array<'off' | 'on' | 'before'> = values.before === undefined ? ['off', 'on'] : ['off', 'on', 'before']
  console.log(`\n| request, tracing off and on | off req/s | on req/s | on / off | ${values.before === undefined ? '' : 'before req/s | off / before | '}p99 off / on ms | goal |`)
  console.log(`|---|---|---|---|${values.before === undefined ? '' : '---|---|'}---|---|`)
  try {
    const files = { off: await serviceDatabase('tracing-off', pets), on: await serviceDatabase('tracing-on', pets), before: join(dir, 'tracing-before.db') }
    tracingServers.off = await start(BUILT_SERVER, { DATABASE_URL: files.off })
    tracingServers.on = await start(BUILT_SERVER, { DATABASE_URL: files.on, OTEL_EXPORTER_OTLP_ENDPOINT: sink.endpoint, OTEL_SERVICE_NAME: 'petstore-bench' })
    if (values.before !== undefined) tracingServers.before = await startBefore(files.before, () => seedPets(files.before, pets))
    for (const row of rows) {
      const runs = await compare(tracingServers, row, names)
      const before = values.before === undefined ? '' : `${cell(runs.before)} | ${times(runs.off!, runs.before)} | `
      console.log(`| ${row.name} | ${cell(runs.off)} | ${cell(runs.on)} | ${times(runs.on!, runs.off)} | ${before}${fixed(p(runs.off!, 'p99'))} / ${fixed(p(runs.on!, 'p99'))} | ${row.goal ?? ''} |`)
    }
    // Stopped, the traced service sends the spans its batch still holds.
    await stop(tracingServers.on!)
    delete tracingServers.on
    if (sink.exports === 0) throw new Error('the traced service sent no spans')
  } finally {
    for (const server of Object.values(tracingServers)) await stop(server!)
    await sink.close()
  }
}

/** The steady create rate at which the delivery lag is measured. */
const STEADY_RATE = 500

/**
 * What one subscribed endpoint costs the creates, and how fast their events reach it: the
 * creates measured on a service with an endpoint subscribed to every event, delivering to a
 * fast receiver in this process, beside the same service without one (each on a database
 * of its own); the deliveries a second during the subscribed runs; then the lag from each
 * event's commit to its receipt, p50 and p99, at a steady 500 creates a second, once the
 * backlog of the runs is delivered.
 */
async function webhookRows (): Promise<void> {
  console.log(`\n| writes, their events delivered to one webhook endpoint | creates/s, subscribed | creates/s, none | subscribed / none | deliveries/s (a run's events, its start to the last received) | lag p50 / p99 ms at ${STEADY_RATE} creates/s | goal |`)
  console.log('|---|---|---|---|---|---|---|')
  const spreads: string[] = []
  await measureWebhooks('', { subscribed: await serviceDatabase('webhooks-subscribed', 0), none: await serviceDatabase('webhooks-none', 0) }, spreads)
  const opened = admin ?? await openAdmin()
  if (typeof opened === 'string') {
    printSpreads(spreads)
    console.log(`\nPostgreSQL rows of the webhooks skipped: ${opened}`)
    return
  }
  admin = opened
  const urls = { subscribed: (await servicePgDatabase('webhooks_subscribed')).url, none: (await servicePgDatabase('webhooks_none')).url }
  await measureWebhooks(' on PostgreSQL', urls, spreads)
  printSpreads(spreads)
}

async function measureWebhooks (suffix: string, urls: Record<'subscribed' | 'none', string>, spreads: string[]): Promise<void> {
  const receiver = await startBenchReceiver()
  const env = { WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' }
  webhookServers.subscribed = await start(BUILT_SERVER, { DATABASE_URL: urls.subscribed, ...env })
  webhookServers.none = await start(BUILT_SERVER, { DATABASE_URL: urls.none, ...env })
  const subscribed = webhookServers.subscribed.base
  const added = await setupFetch(`${subscribed}/v1/webhook-endpoints`, {
    method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ url: receiver.url, events: ['*'] })
  })
  if (added.status !== 201) throw new Error(`could not subscribe the receiver: ${added.status} ${await added.text()}`)
  // Each run starts once the deliveries of the one before are made: a backlog delivered
  // during the other server's run would take its core. The deliveries a second of a run
  // count from its start to the last delivery of its events.
  let began = 0
  let countAtStart = 0
  let measuring = false
  const deliveryRates: number[] = []
  const settle = async () => {
    await drained(receiver)
    if (measuring) deliveryRates.push((receiver.count - countAtStart) * 1000 / (receiver.received.at(-1)!.at - began))
    measuring = false
  }
  const runs = await compare(webhookServers, { ...webhookRow, name: `${webhookRow.name}${suffix}` }, ['subscribed', 'none'], undefined,
    (name) => { measuring = name === 'subscribed' },
    async (name) => {
      await settle()
      began = Date.now()
      countAtStart = receiver.count
    })
  await settle()
  const before = receiver.count
  const paced = await steadyPosts(subscribed, '/v1/pets', newPet, headers, STEADY_RATE, seconds)
  if (paced.failed > 0) throw new Error(`${paced.failed} of the steady creates failed`)
  const deadline = Date.now() + 60_000
  while (receiver.count < before + paced.sent && Date.now() < deadline) await sleep(50)
  const lags = receiver.received.slice(before).map((delivery) => delivery.lagMs)
  const delivered = lags.length < paced.sent ? ` (${lags.length} of ${paced.sent} delivered within a minute)` : ''
  console.log(`| ${webhookRow.name}${suffix} | ${cell(runs.subscribed)} | ${cell(runs.none)} | ${times(runs.subscribed!, runs.none)} | ${fixed(median(deliveryRates.slice(1)))} | ` +
    `${fixed(percentile(lags, 0.5))} / ${fixed(percentile(lags, 0.99))}${delivered} | ${webhookRow.goal ?? ''} |`)
  spreads.push(`${webhookRow.name}${suffix} ${spread(runs.subscribed!, runs.none!)} none`)
  for (const server of Object.values(webhookServers)) await stop(server!)
  await receiver.close()
}

/** Resolves once the receiver has had nothing new for a second. */
async function drained (receiver: BenchReceiver): Promise<void> {
  for (let last = -1; receiver.count !== last;) {
    last = receiver.count
    await sleep(1000)
  }
}

let finished = false
const servers: Partial<Record<Peer, ServerProcess>> = {}
const scaled: Partial<Record<'small' | 'large', ServerProcess>> = {}
const variants: Record<string, ServerProcess> = {}
try {
  const files = {
    main: chosen.length > 0 ? await serviceDatabase('service', pets) : '',
    small: scaling.length > 0 ? await serviceDatabase('small', sizes.small) : '',
    // Also the start times' database (a full run, or `--only "npm start"`).
    large: scaling.length > 0 || startsChosen ? await serviceDatabase('large', sizes.large) : '',
    // The earlier build's own, for its start (its migrations are not this checkout's).
    beforeLarge: startsChosen && values.before !== undefined ? join(dir, 'before-large.db') : ''
  }
  // Made before the service starts, in its database: it is loaded with the others.
  if (chosen.some((row) => row.scoped === true)) scopedKey = createScopedKey(files.main)
  const starts: number[] = []
  const beforeStarts: number[] = []
  if (files.beforeLarge !== '') await beforeDatabase(files.beforeLarge, () => seedPets(files.beforeLarge, sizes.large))
  // Alternated with the earlier build's, where there is one, so that the machine's spells hit both alike.
  const startRuns = startsChosen ? Number(values.starts) : 0
  for (let i = 0; i < startRuns; i++) {
    starts.push(await startTime(files.large))
    if (files.beforeLarge !== '') beforeStarts.push(await startTime(files.beforeLarge, resolve(values.before!)))
  }
  const startCell = (runs: number[]) => `${fixed(median(runs), 2)} s (runs: ${runs.map((s) => s.toFixed(2)).join(', ')})`

  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  const readP99s: number[] = []
  let rss: Record<string, number> = {}
  // Peak RSS right after the listing that the ceiling also serves, the first scenario: the
  // memory that load needs, before the writes of the later scenarios grow the database's
  // page cache and the heap.
  let readLoadRss: Record<string, number> | undefined
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
    const spreads: string[] = []
    for (const row of chosen) {
      const runs = await compare(servers, row, row.peers)
      const service = runs.service!
      if ((row.method ?? 'GET') === 'GET' && row.status === undefined && row.mix === undefined) readP99s.push(p(service, 'p99'))
      const p99 = (runs: Result[] | undefined) => runs === undefined ? '' : String(p(runs, 'p99'))
      console.log(`| ${row.name} | ${cell(service)} | ${cell(runs.uncached)} | ${cell(runs.express)} | ${cell(runs.baseline)} | ${cell(runs.ceiling)} | ` +
        `${times(service, runs.express)} | ${times(service, runs.baseline)} | ${times(service, runs.ceiling)} | ` +
        `${p(service, 'p50')} / ${p(service, 'p99')} | ${p99(runs.uncached)} | ${p99(runs.express)} | ${row.goal ?? ''} |`)
      if (row.goal !== undefined && runs.express !== undefined) spreads.push(`${row.name} ${spread(service, runs.express)} express`)
      if (row.goal !== undefined && runs.ceiling !== undefined) spreads.push(`${row.name} ${spread(service, runs.ceiling)} the ceiling`)
      // The ceiling may be the load generator's: this process, on its one core, beside it.
      if (runs.ceiling !== undefined) {
        readLoadRss ??= { service: peakRss(servers.service!.child.pid!), ceiling: peakRss(servers.ceiling!.child.pid!) }
        loadLines.push(`load generator CPU during ${row.name} (this process, % of one core, median of the rounds): ` +
          `${loadCpu(service)} against the service, ${loadCpu(runs.ceiling)} against the ceiling (service / ceiling ${times(service, runs.ceiling)})`)
      }
    }
    printSpreads(spreads)
    for (const line of loadLines) console.log(`\n${line}`)
    rss = Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, peakRss(server.child.pid!)]))
    if (chosen.includes(rows[0]!)) await behaviourCosts(files.main)

    // Scaling is the database path's: with the cache on, a small table is served from memory
    // and a large one, read at random, mostly is not, which says nothing about the queries.
    if (scaling.length > 0) {
      scaled.small = await start(BUILT_SERVER, { DATABASE_URL: files.small, RESPONSE_CACHE_MB: '0' })
      scaled.large = await start(BUILT_SERVER, { DATABASE_URL: files.large, RESPONSE_CACHE_MB: '0' })
      console.log(`\n| read, no response cache | ${sizes.small} pets req/s | ${sizes.large} pets req/s | ${sizes.small} / ${sizes.large} | goal |`)
      console.log('|---|---|---|---|---|')
      const scalingSpreads: string[] = []
      for (const row of scaling) {
        // Both sizes in each round, as the peers above: the ratio is the median of the rounds'.
        // Each size gets paths that fit it (a random id among its own pets).
        const runs = await compare(scaled, row, ['small', 'large'], (name) => sizes[name as 'small' | 'large'])
        const slowdown = ratio(runs.small!, runs.large!)
        slowdowns.push(slowdown)
        console.log(`| ${row.name} | ${cell(runs.small)} | ${cell(runs.large)} | ${fixed(slowdown, 2)}× | ≤ 1.15× |`)
        scalingSpreads.push(`${row.name} ${spread(runs.small!, runs.large!)}`)
      }
      printSpreads(scalingSpreads)
    }
  }

  if (pgChosen.length > 0) await postgresRows()
  if (values.before !== undefined) await eventCost()
  if (webhooksChosen) await webhookRows()
  if (tracingChosen.length > 0) await tracingCost(tracingChosen)

  if (beforeStarts.length > 0) {
    console.log('\n| start, beside the build before | service | before | service / before |')
    console.log('|---|---|---|---|')
    console.log(`| ${START_MEASURE}, ${sizes.large} pets, one core | ${startCell(starts)} | ${startCell(beforeStarts)} | ${fixed(median(starts) / median(beforeStarts), 2)}× |`)
  }
  if (values.only !== undefined) {
    if (chosen.length > 0) console.log(`\npeak RSS, MiB: ${Object.entries(rss).map(([name, mib]) => `${name} ${fixed(mib)}`).join(', ')}`)
    if (startsChosen && beforeStarts.length === 0) console.log(`\n${START_MEASURE}, ${sizes.large} pets, one core: ${startCell(starts)}`)
  } else {
    console.log('\n| measure | service | goal |')
    console.log('|---|---|---|')
    console.log(`| p99 latency of the read scenarios | ${fixed(Math.min(...readP99s))}–${fixed(Math.max(...readP99s))} ms | ≤ 20 ms |`)
    console.log(`| peak RSS under the \`${rows[0]!.name}\` load | ${fixed(readLoadRss!.service!)} MiB (ceiling ${fixed(readLoadRss!.ceiling!)}) | ≤ 95 MiB |`)
    console.log(`| peak RSS after every scenario, writes included | ${fixed(rss.service!)} MiB (no cache ${fixed(rss.uncached!)}, express ${fixed(rss.express!)}, baseline ${fixed(rss.baseline!)}, ceiling ${fixed(rss.ceiling!)}) | ≤ 120 MiB |`)
    console.log(`| ${START_MEASURE}, ${sizes.large} pets, one core | ${startCell(starts)} | ≤ 0.6 s |`)
    console.log(`| every read at ${sizes.large} pets vs at ${sizes.small} | within ${fixed(Math.max(...slowdowns), 2)}× | ≤ 1.15× |`)
  }
  finished = true
} finally {
  await cleanUp()
  // A failed run keeps the servers' logs (server-N.log) and SQLite databases, to see why.
  if (finished) rmSync(dir, { recursive: true, force: true })
  else console.error(`the servers' logs and databases are kept in ${dir}`)
}
