/**
 * A row of the benchmark run against its servers in rounds, and how its figures are shown:
 * medians of the rounds, ratios within each round, and those ratios round by round.
 */
import { measure, median, type Result, type Scenario } from './measure.ts'
import { connections, headers, pets, rounds, seconds } from './run.ts'
import { fixed, roundRatios } from './rounds.ts'
export { eachRound, fixed } from './rounds.ts'
import type { ServerProcess } from '../lib/spawn-server.ts'

export type Peer = 'service' | 'uncached' | 'express' | 'baseline' | 'ceiling' | 'express-pg'

export interface Row extends Scenario {
  peers: Peer[]
  goal?: string
  /** Measured again on the small and the large database. */
  scales?: boolean
  /** Sent with the scoped database key instead of the environment's. */
  scoped?: boolean
}

const options = (size: number) => ({ seconds, connections, headers, pets: size })

/**
 * Runs `row` against each of `names` (servers of `servers`), `rounds` times, rotating who
 * goes first. `sizeOf` is the number of pets in each one's database (the scaling rows
 * differ). `each` is told of every run, the warm-ups' included; `before` runs before each.
 */
export async function compare (servers: Partial<Record<string, ServerProcess>>, row: Row, names: string[], sizeOf = (_name: string) => pets,
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

export const rps = (runs: Result[]) => median(runs.map((run) => run.rps))
export const p = (runs: Result[], which: 'p50' | 'p99') => median(runs.map((run) => run[which]))
// The ratio within each round, then their median: noise that lasts longer than one
// round hits both sides of it.
export const ratio = (a: Result[], b: Result[]) => median(roundRatios(a, b))
/** After a table: each round's ratio for each goal (`eachRound`). */
export const printRounds = (lines: string[]) => {
  if (lines.length === 0) return
  console.log(`\nthe rounds' own ratios, round by round, for the goals: ${lines.join('; ')}`)
}

export const cell = (runs: Result[] | undefined) => runs === undefined ? '' : fixed(rps(runs))
export const times = (runs: Result[], against: Result[] | undefined) => against === undefined ? '' : `${fixed(ratio(runs, against), 2)}×`
export const loadCpu = (runs: Result[]) => `${fixed(median(runs.map((run) => run.loadCpu)))}%`
