/**
 * The benchmark's run, shared by its scenarios: the options it was given, the key and the
 * headers every request carries, the servers it starts (each pinned to the first core, the
 * load generator to the second) and the SQLite databases it makes for them. Every server
 * started here is stopped by `stopAll`, whatever happened.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { loadConfig } from '../../src/config/config.ts'
import { connect } from '../../src/database/connect.ts'
import { migrateToLatest } from '../../src/database/migrate.ts'
import { seedPets } from './seed.ts'
import { npmStart, spawnServer, type ServerProcess } from '../lib/spawn-server.ts'

export const { values } = parseArgs({
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
export const seconds = Number(values.seconds)
export const rounds = Number(values.rounds)
export const connections = Number(values.connections)
export const pets = Number(values.pets)
export const sizes = { small: Number(values.small), large: Number(values.large) }

const KEY = 'bench-key-not-a-secret-000000000'
export const headers = { authorization: `Bearer ${KEY}` }
export const newPet = JSON.stringify({ name: 'Rex', categoryId: 1, status: 'available' })
// The service as `npm start` runs it: its environment, its script's node options, then its script (the build in dist/).
const { script: BUILT, nodeArgs: START_OPTIONS, env: START_ENV } = npmStart()
export const BUILT_SERVER = BUILT
let made: string | undefined
/** Where the servers' databases and logs go, made at its first use: removed after a run that succeeded. */
export function benchDir (): string {
  made ??= mkdtempSync(join(tmpdir(), 'petstore-bench-'))
  return made
}
/** The folder, if the run made it. */
export const madeDir = (): string | undefined => made
/** The service's settings in every run: the key, and a rate limit the load never reaches, so its cost is still counted. */
export const SERVICE_ENV = { PETSTORE_API_KEYS: KEY, RATE_LIMIT_MAX: '1000000000' }

// Servers on the first core, the load generator on the second.
export const cores = availableParallelism()
export const pinned = !values.unpinned && cores >= 2 && hasTaskset()
export const SERVER_CORES = pinned ? '0' : undefined
if (pinned) execFileSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)], { stdio: 'ignore' })

function hasTaskset (): boolean {
  try { execFileSync('taskset', ['-V'], { stdio: 'ignore' }); return true } catch { return false }
}

/** Migrates the database at `url` (SQLite or PostgreSQL) before the service starts on it, as a deployment's would be. */
export async function migrated (url: string): Promise<void> {
  // The default settings, whatever this shell's environment says: the database is the bench's own.
  const db = await connect({ ...loadConfig({}).database, url })
  await migrateToLatest(db)
  await db.destroy()
}

/** The service's SQLite database, migrated and seeded before it starts. */
export async function serviceDatabase (name: string, count: number): Promise<string> {
  const file = join(benchDir(), `${name}.db`)
  await migrated(file)
  seedPets(file, count)
  return file
}

const running = new Set<ServerProcess>()
let started = 0
/** Starts `script` (this checkout's build, another's, or a peer) with `env`, until `stop` or `stopAll`. */
export async function start (script: string, env: Record<string, string>): Promise<ServerProcess> {
  // This checkout's build, or another's (--before).
  const built = script === BUILT_SERVER || script.endsWith('/scripts/start.js')
  // Log lines to a file, as a deployment keeps them, not into a pipe this busy process drains.
  const logFile = join(benchDir(), `server-${++started}.log`)
  const server = await spawnServer(script, { ...SERVICE_ENV, ...(built && START_ENV), ...env }, { cores: SERVER_CORES, logFile, nodeArgs: built ? START_OPTIONS : [] })
  running.add(server)
  return server
}

/** A peer makes its own table at start; it is seeded right after. */
export async function startPeer (name: string, script: string): Promise<ServerProcess> {
  const file = join(benchDir(), `${name}.db`)
  const server = await start(script, { DATABASE_URL: file })
  seedPets(file, pets)
  return server
}

export async function stop (server: ServerProcess): Promise<void> {
  running.delete(server)
  if (server.child.exitCode !== null || server.child.signalCode !== null) return
  server.child.kill('SIGTERM')
  await new Promise((resolve) => server.child.once('exit', resolve))
}

/** Every server still running, told to stop. */
export function stopAll (): void {
  for (const server of running) server.child.kill('SIGTERM')
  running.clear()
}

/** The earlier build's (`--before`) start script. */
export const beforeScript = () => join(resolve(values.before!), 'scripts/start.js')

/**
 * The database `url` for the earlier build (`--before`): the build started once to make
 * its own tables (its migrations are not this checkout's), stopped, and `seed` run.
 */
export async function beforeDatabase (url: string, seed: () => void | Promise<void>): Promise<void> {
  await stop(await start(beforeScript(), { DATABASE_URL: url }))
  await seed()
}

/** The earlier build (`--before`) on the database `url`, made by `beforeDatabase`. */
export async function startBefore (url: string, seed: () => void | Promise<void>): Promise<ServerProcess> {
  await beforeDatabase(url, seed)
  return await start(beforeScript(), { DATABASE_URL: url })
}
