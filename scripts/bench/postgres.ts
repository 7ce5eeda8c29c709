/**
 * The benchmark on PostgreSQL: the server it makes its databases on (TEST_POSTGRES_URL), each
 * dropped by `closePostgres` whatever happens, and the PostgreSQL rows, the service beside
 * `express-pg`, with the transactions and round trips each request costs.
 */
import { randomBytes } from 'node:crypto'
import { setTimeout as sleep } from 'node:timers/promises'
import pg from 'pg'
import { cell, compare, fixed, p, printRounds, eachRound, times, type Peer, type Row } from './compare.ts'
import { cpuSeconds, peakRss } from '../lib/proc-stat.ts'
import { countingProxy, type PgCounter } from './pg-counter.ts'
import { postgresCpu } from './postgres-cpu.ts'
import { BUILT_SERVER, headers, migrated, pets, start, stop } from './run.ts'
import { seedPostgresPets } from './seed.ts'
import type { ServerProcess } from '../lib/spawn-server.ts'

const POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
const pgPrefix = `petstore_bench_${randomBytes(4).toString('hex')}`
const pgDatabases: string[] = []
let admin: pg.Client | undefined
const counters: PgCounter[] = []
const EXPRESS_PG = 'scripts/bench/express-pg.ts'
/** CPU seconds a row's runs took: the server's, PostgreSQL's, and the load generator's. */
interface CpuSpent { server: number, database: number, load: number }
const CPU_PARTS = ['server', 'database', 'load'] as const
/** Requests counted on the wire, per row and server, for the round trips. */
const COUNTED_REQUESTS = 100

/** The URL, its password hidden, for a message. */
function shown (url: string): string {
  const parsed = new URL(url)
  if (parsed.password !== '') parsed.password = '***'
  return parsed.toString()
}

/** Connects to the server's admin database, once; resolves with why it cannot, or undefined. */
export async function openAdmin (): Promise<string | undefined> {
  if (admin !== undefined) return undefined
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
  admin = client
  return undefined
}

/** A fresh database on that server, dropped at the end; returns its URL. */
export async function createPgDatabase (suffix: string): Promise<{ name: string, url: string }> {
  const name = `${pgPrefix}_${suffix}`
  await admin!.query(`create database ${name}`)
  pgDatabases.push(name)
  const url = new URL(POSTGRES_URL)
  url.pathname = `/${name}`
  return { name, url: url.toString() }
}

/** A fresh database for the service, migrated before it starts, as a deployment's would be. */
export async function servicePgDatabase (suffix: string): Promise<{ name: string, url: string }> {
  const made = await createPgDatabase(suffix)
  await migrated(made.url)
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

/** Starts the service and the peer at once, each on its database (`urls`), into `into`. */
async function startOnPostgres (urls: Partial<Record<Peer, string>>, into: Partial<Record<Peer, ServerProcess>>): Promise<void> {
  const scripts: Partial<Record<Peer, string>> = { service: BUILT_SERVER, 'express-pg': EXPRESS_PG }
  const peers = Object.keys(urls) as Peer[]
  const started = await Promise.allSettled(peers.map((peer) => start(scripts[peer]!, { DATABASE_URL: urls[peer]! })))
  started.forEach((outcome, i) => { if (outcome.status === 'fulfilled') into[peers[i]!] = outcome.value })
  for (const outcome of started) if (outcome.status === 'rejected') throw outcome.reason
}

/** Round trips per request to PostgreSQL, over sequential requests to a server whose connections go through `counter`. */
async function roundTrips (base: string, row: Row, counter: PgCounter): Promise<number> {
  const draw = row.mix?.(pets)
  let trips = 0
  for (let i = 0; i < COUNTED_REQUESTS; i++) {
    const drawn = draw?.()
    const body = drawn !== undefined ? drawn.body : typeof row.body === 'function' ? row.body() : row.body
    trips += await countedRequest(base + (drawn?.path ?? row.path(pets)), {
      method: drawn?.method ?? row.method ?? 'GET',
      headers: { ...headers, ...(body !== undefined && { 'content-type': row.contentType ?? 'application/json' }) },
      body
    }, row, counter)
  }
  return trips / COUNTED_REQUESTS
}

/** How often a request refused for now (503) is sent again before the row fails. */
const RETRIES = 20

/**
 * One request's round trips. A 503 `unavailable` (a server just started on a busy machine
 * sheds load, as it should) is sent again after its Retry-After, and only the answered
 * one is counted; any other unexpected status fails the row, with the body saying why.
 */
async function countedRequest (url: string, init: RequestInit, row: Row, counter: PgCounter): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const before = counter.counts().roundTrips
    const answer = await fetch(url, init)
    const text = await answer.text()
    if (answer.status === 503 && attempt < RETRIES) {
      await sleep(Number(answer.headers.get('retry-after') ?? 1) * 1000)
      continue
    }
    if (row.status === undefined ? !answer.ok : answer.status !== row.status) throw new Error(`${row.name} on ${url}: answered ${answer.status} ${text}`)
    return counter.counts().roundTrips - before
  }
}

/** The PostgreSQL rows `chosen`: their own table, or the line saying why they were skipped. */
export async function postgresRows (chosen: Row[]): Promise<void> {
  const why = await openAdmin()
  if (why !== undefined) {
    console.log(`\nPostgreSQL rows skipped: ${why}`)
    return
  }
  const version = (await admin!.query<{ server_version: string }>('show server_version')).rows[0]!.server_version
  const versionNumber = Number((await admin!.query<{ server_version_num: string }>('show server_version_num')).rows[0]!.server_version_num)
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
    for (const row of chosen) {
      const perRequest = await Promise.all(row.peers.map((peer) => roundTrips(counted[peer]!.base, row, counter[peer]!)))
      trips[row.name] = Object.fromEntries(row.peers.map((peer, i) => [peer, perRequest[i]!]))
    }
  } finally {
    for (const server of Object.values(counted)) await stop(server)
    for (const counter of counters.splice(0)) await counter.close()
  }

  const { hostname, port } = new URL(POSTGRES_URL)
  const databaseCpu = await postgresCpu(admin!)
  console.log(`\nPostgreSQL ${version} at ${hostname}:${port || 5432} (not pinned), ${pets} pets in each server's database; transactions per request: ` +
    `xact_commit in pg_stat_database over the row's runs, warm-ups included; round trips per request: counted on the wire over ${COUNTED_REQUESTS} sequential requests; ` +
    `CPU µs per request (user and system) over the row's runs, warm-ups included: the server's + ${databaseCpu === undefined ? '(not PostgreSQL\'s, whose processes are not this machine\'s)' : 'all of PostgreSQL\'s processes\' while that server ran'} + the load generator's\n`)
  console.log('| scenario | service req/s | express-pg | service / express-pg | service p50 / p99 ms | express-pg p99 | transactions / request, service / express-pg | round trips / request, service / express-pg | CPU µs / request, service + PostgreSQL + load | express-pg + PostgreSQL + load | goal |')
  console.log('|---|---|---|---|---|---|---|---|---|---|---|')
  // Each row on servers started for it and stopped after it, so that every transaction of
  // its runs has been reported when the counters are read.
  let before = await commits(names)
  const rss: Partial<Record<Peer, number>> = {}
  const roundLines: string[] = []
  for (const row of chosen) {
    const servers: Partial<Record<Peer, ServerProcess>> = {}
    await startOnPostgres({ service: serviceDb.url, 'express-pg': peerDb.url }, servers)
    const sent: Partial<Record<Peer, number>> = {}
    // CPU seconds over the row's runs, each peer's runs one after the other's: the server's,
    // PostgreSQL's, and this process's, which is the load generator.
    const cpu: Partial<Record<Peer, CpuSpent>> = {}
    let at: CpuSpent = { server: 0, database: 0, load: 0 }
    const spent = (peer: Peer): CpuSpent => {
      const { user, system } = process.cpuUsage()
      return { server: cpuSeconds(servers[peer]!.child.pid!), database: databaseCpu?.() ?? 0, load: (user + system) / 1e6 }
    }
    const runs = await compare(servers, row, row.peers, undefined, (name, run) => {
      const peer = name as Peer
      sent[peer] = (sent[peer] ?? 0) + run.requests
      const now = spent(peer)
      const used = cpu[peer] ??= { server: 0, database: 0, load: 0 }
      for (const part of CPU_PARTS) used[part] += now[part] - at[part]
    }, (name) => { at = spent(name as Peer) })
    for (const peer of row.peers) {
      rss[peer] = Math.max(rss[peer] ?? 0, peakRss(servers[peer]!.child.pid!))
      await stop(servers[peer]!)
    }
    const after = await commits(names)
    const xacts = Object.fromEntries(row.peers.map((peer) => [peer, fixed((after[database[peer]!]! - before[database[peer]!]!) / sent[peer]!, 2)]))
    before = after
    const service = runs.service!
    const express = runs['express-pg']!
    const perRequest = (peer: Peer) => CPU_PARTS.map((part) => part === 'database' && databaseCpu === undefined ? '–' : fixed(cpu[peer]![part] * 1e6 / sent[peer]!)).join(' + ')
    console.log(`| ${row.name} | ${cell(service)} | ${cell(express)} | ${times(service, express)} | ${p(service, 'p50')} / ${p(service, 'p99')} | ${p(express, 'p99')} | ` +
      `${xacts.service} / ${xacts['express-pg']} | ${fixed(trips[row.name]!.service!, 2)} / ${fixed(trips[row.name]!['express-pg']!, 2)} | ` +
      `${perRequest('service')} | ${perRequest('express-pg')} | ${row.goal ?? ''} |`)
    if (row.goal !== undefined) roundLines.push(`${row.name} ${eachRound(service, express)} express-pg`)
  }
  printRounds(roundLines)
  console.log(`\npeak RSS on PostgreSQL, MiB: service ${fixed(rss.service!)}, express-pg ${fixed(rss['express-pg']!)}`)
}

/** Closes the counting proxies and drops every database the benchmark made; their servers must be told to stop first. */
export async function closePostgres (): Promise<void> {
  // Their connections must be gone before their databases: `with (force)` ends any left.
  for (const counter of counters) await counter.close()
  for (const name of pgDatabases) {
    await admin!.query(`drop database if exists ${name} with (force)`).catch((error: Error) =>
      console.error(`could not drop the PostgreSQL database ${name}: ${error.message}`))
  }
  await admin?.end().catch(() => {})
}
