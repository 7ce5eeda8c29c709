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
 * Also: p50/p99 latency, each server's peak RSS, the disk's fsync time (the floor under a
 * commit on SQLite), the start of `npm start` on a 1M-pet
 * database, every read on 1M pets against 1k pets, and what one subscribed webhook endpoint
 * costs the creates, with the deliveries a second and the lag from commit to receipt
 * (`--only webhook` for those alone), what publishing every event to NATS JetStream costs
 * them, with the lag from commit to the broker and the CPU time a create takes, beside what
 * publishing alone costs the NATS client (`--only "event stream"`; skipped without NATS),
 * and what tracing costs, off and on (`--only tracing`).
 *
 * The service runs as `npm start` runs it (the build in dist/, default settings but a rate
 * limit the load never reaches, so its cost is still counted). Servers are pinned to the
 * first core and the load generator (this process) to the second, where there are two.
 * Each scenario runs against each server in turn, several rounds, rotating the order, so
 * machine noise hits all alike; figures are medians of the rounds, and under each table
 * each round's own ratio for each goal, round by round.
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
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { behaviourCosts } from './bench/behaviour-costs.ts'
import { cell, compare, fixed, loadCpu, p, printRounds, ratio, eachRound, times, type Peer } from './bench/compare.ts'
import { eventCost } from './bench/event-cost.ts'
import { median, type Result } from './bench/measure.ts'
import { closePostgres, postgresRows } from './bench/postgres.ts'
import { createScopedKey, eventStreamRow, pgRows, placeOrders, rows, tracingRows, webhookRow } from './bench/rows.ts'
import {
  beforeDatabase, benchDir, BUILT_SERVER, connections, cores, madeDir, pets, pinned, rounds, seconds, serviceDatabase, sizes, start, startPeer, stopAll, values
} from './bench/run.ts'
import { seedPets } from './bench/seed.ts'
import { START_MEASURE, startTime } from './bench/start-time.ts'
import { tracingCost } from './bench/tracing-cost.ts'
import { webhookRows } from './bench/webhook-cost.ts'
import { eventStreamRows } from './bench/event-stream-cost.ts'
import { fsyncLine } from './bench/disk.ts'
import { peakRss } from './lib/proc-stat.ts'
import type { ServerProcess } from './lib/spawn-server.ts'

if (values.help) {
  // The usage, from this file's own header.
  const header = readFileSync(fileURLToPath(import.meta.url), 'utf8').split('*/')[0]!
  console.log(header.replace(/^\/\*\*\n/, '').split('\n').map((line) => line.replace(/^ \* ?/, '')).join('\n').trim())
  process.exit(0)
}

// --before: the start script of another checkout, checked before anything is measured.
if (values.before !== undefined && !existsSync(join(resolve(values.before), 'dist/server.js'))) {
  throw new Error(`--before ${values.before}: no build there (dist/server.js): run npm ci in it`)
}

const chosen = values.only === undefined ? rows : rows.filter((row) => row.name.includes(values.only!))
const pgChosen = values.only === undefined ? pgRows : pgRows.filter((row) => row.name.includes(values.only!))
const webhooksChosen = values.only === undefined || webhookRow.name.includes(values.only)
const streamChosen = values.only === undefined || eventStreamRow.name.includes(values.only)
const tracingChosen = values.only === undefined ? tracingRows : tracingRows.filter((row) => row.name.includes(values.only!))
const startsChosen = values.only === undefined || START_MEASURE.includes(values.only)
if (chosen.length === 0 && pgChosen.length === 0 && !webhooksChosen && !streamChosen && tracingChosen.length === 0 && !startsChosen) throw new Error(`no scenario's name holds ${JSON.stringify(values.only)}`)
const needed = new Set(chosen.flatMap((row) => row.peers))
// Rows measured again on the small and the large database.
const scaling = chosen.filter((row) => row.scales === true)

let cleaned: Promise<void> | undefined
/** Stops every server and drops the PostgreSQL databases; once, on success, failure or an interrupt. */
function cleanUp (): Promise<void> {
  cleaned ??= (async () => {
    stopAll()
    await closePostgres()
  })()
  return cleaned
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => { cleanUp().finally(() => process.exit(130)).catch(() => {}) })
}

let finished = false
const servers: Partial<Record<Peer, ServerProcess>> = {}
const scaled: Partial<Record<'small' | 'large', ServerProcess>> = {}
try {
  const files = {
    main: chosen.length > 0 ? await serviceDatabase('service', pets) : '',
    small: scaling.length > 0 ? await serviceDatabase('small', sizes.small) : '',
    // Also the start times' database (a full run, or `--only "npm start"`).
    large: scaling.length > 0 || startsChosen ? await serviceDatabase('large', sizes.large) : '',
    // The earlier build's own, for its start (its migrations are not this checkout's).
    beforeLarge: startsChosen && values.before !== undefined ? join(benchDir(), 'before-large.db') : ''
  }
  // Made before the service starts, in its database: it is loaded with the others.
  if (chosen.some((row) => row.scoped === true)) createScopedKey(files.main)
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
    `median of ${rounds} rounds of ${seconds} s`)
  // What no commit on SQLite can beat, for reading its write rows' latency.
  console.log(`${fsyncLine()}\n`)
  if (chosen.length > 0) {
    console.log('| scenario | service req/s | no cache | express | baseline | ceiling | service / express | service / baseline | service / ceiling | service p50 / p99 ms | no cache p99 | express p99 | goal |')
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    const loadLines: string[] = []
    const roundLines: string[] = []
    for (const row of chosen) {
      const runs = await compare(servers, row, row.peers)
      const service = runs.service!
      if ((row.method ?? 'GET') === 'GET' && row.status === undefined && row.mix === undefined) readP99s.push(p(service, 'p99'))
      const p99 = (runs: Result[] | undefined) => runs === undefined ? '' : String(p(runs, 'p99'))
      console.log(`| ${row.name} | ${cell(service)} | ${cell(runs.uncached)} | ${cell(runs.express)} | ${cell(runs.baseline)} | ${cell(runs.ceiling)} | ` +
        `${times(service, runs.express)} | ${times(service, runs.baseline)} | ${times(service, runs.ceiling)} | ` +
        `${p(service, 'p50')} / ${p(service, 'p99')} | ${p99(runs.uncached)} | ${p99(runs.express)} | ${row.goal ?? ''} |`)
      if (row.goal !== undefined && runs.express !== undefined) roundLines.push(`${row.name} ${eachRound(service, runs.express)} express`)
      if (row.goal !== undefined && runs.ceiling !== undefined) roundLines.push(`${row.name} ${eachRound(service, runs.ceiling)} the ceiling`)
      // The ceiling may be the load generator's: this process, on its one core, beside it.
      if (runs.ceiling !== undefined) {
        readLoadRss ??= { service: peakRss(servers.service!.child.pid!), ceiling: peakRss(servers.ceiling!.child.pid!) }
        loadLines.push(`load generator CPU during ${row.name} (this process, % of one core, median of the rounds): ` +
          `${loadCpu(service)} against the service, ${loadCpu(runs.ceiling)} against the ceiling (service / ceiling ${times(service, runs.ceiling)})`)
      }
    }
    printRounds(roundLines)
    for (const line of loadLines) console.log(`\n${line}`)
    rss = Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, peakRss(server.child.pid!)]))
    if (chosen.includes(rows[0]!)) await behaviourCosts(rows[0]!, servers, files.main)

    // Scaling is the database path's: with the cache on, a small table is served from memory
    // and a large one, read at random, mostly is not, which says nothing about the queries.
    if (scaling.length > 0) {
      scaled.small = await start(BUILT_SERVER, { DATABASE_URL: files.small, RESPONSE_CACHE_MB: '0' })
      scaled.large = await start(BUILT_SERVER, { DATABASE_URL: files.large, RESPONSE_CACHE_MB: '0' })
      console.log(`\n| read, no response cache | ${sizes.small} pets req/s | ${sizes.large} pets req/s | ${sizes.small} / ${sizes.large} | goal |`)
      console.log('|---|---|---|---|---|')
      const scalingRoundLines: string[] = []
      for (const row of scaling) {
        // Both sizes in each round, as the peers above: the ratio is the median of the rounds'.
        // Each size gets paths that fit it (a random id among its own pets).
        const runs = await compare(scaled, row, ['small', 'large'], (name) => sizes[name as 'small' | 'large'])
        const slowdown = ratio(runs.small!, runs.large!)
        slowdowns.push(slowdown)
        console.log(`| ${row.name} | ${cell(runs.small)} | ${cell(runs.large)} | ${fixed(slowdown, 2)}× | ≤ 1.15× |`)
        scalingRoundLines.push(`${row.name} ${eachRound(runs.small!, runs.large!)}`)
      }
      printRounds(scalingRoundLines)
    }
  }

  if (pgChosen.length > 0) await postgresRows(pgChosen)
  if (values.before !== undefined) await eventCost()
  if (webhooksChosen) await webhookRows()
  if (streamChosen) await eventStreamRows()
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
    console.log(`| p99 latency of the read scenarios | ${fixed(Math.min(...readP99s))}–${fixed(Math.max(...readP99s))} ms | ≤ 10 ms |`)
    console.log(`| peak RSS under the \`${rows[0]!.name}\` load | ${fixed(readLoadRss!.service!)} MiB (ceiling ${fixed(readLoadRss!.ceiling!)}) | ≤ 95 MiB |`)
    console.log(`| peak RSS after every scenario, writes included | ${fixed(rss.service!)} MiB (no cache ${fixed(rss.uncached!)}, express ${fixed(rss.express!)}, baseline ${fixed(rss.baseline!)}, ceiling ${fixed(rss.ceiling!)}) | ≤ 95 MiB |`)
    console.log(`| ${START_MEASURE}, ${sizes.large} pets, one core | ${startCell(starts)} | ≤ 0.6 s |`)
    console.log(`| every read at ${sizes.large} pets vs at ${sizes.small} | within ${fixed(Math.max(...slowdowns), 2)}× | ≤ 1.15× |`)
  }
  finished = true
} finally {
  await cleanUp()
  // A failed run keeps the servers' logs (server-N.log) and SQLite databases, to see why.
  const dir = madeDir()
  if (finished && dir !== undefined) rmSync(dir, { recursive: true, force: true })
  else if (dir !== undefined) console.error(`the servers' logs and databases are kept in ${dir}`)
}
