/**
 * One measurement: autocannon driving one scenario against one server for a while, and
 * what came of it (requests per second, p50 and p99 latency, requests sent, and the load
 * generator's own CPU). Any failed request fails the benchmark: a fast error is not a result.
 */
import autocannon from 'autocannon'
import type { Drawn } from './mix.ts'

export interface Scenario {
  name: string
  method?: 'GET' | 'POST' | 'PATCH'
  /** The path of the requests, on a database of `pets` pets; called once per request where `varies`. */
  path: (pets: number) => string
  /**
   * The path differs from request to request (a random pet). Otherwise it is asked for once
   * and every request is the same bytes, built once: building each request anew costs the
   * load generator more CPU than some servers spend answering it.
   */
  varies?: boolean
  /** The body; a function is called once per request, so it may vary. */
  body?: string | (() => string)
  /** The body's media type; application/json by default. */
  contentType?: string
  /** Extra headers, asked once before the run; peers ignore them. */
  extra?: (base: string) => Promise<Record<string, string>>
  /** A fresh Idempotency-Key on every request. */
  uniqueKeys?: boolean
  /** The status every answer must have; a 2xx by default. */
  status?: number
  /**
   * Each request drawn from a mix (./mix.ts) instead: method, path and body. Called once per
   * run, so every run sends the same sequence.
   */
  mix?: (pets: number) => () => Drawn
}

export interface Result {
  rps: number
  p50: number
  p99: number
  /**
   * Requests sent, the last ones still unanswered when the run ended included (at most one
   * per connection): the server runs those too, so they count for the work it did.
   */
  requests: number
  /** This process's CPU time over the run's wall time, in % of one core: the load generator's. */
  loadCpu: number
}

let keys = 0

export interface MeasureOptions {
  seconds: number
  connections: number
  headers: Record<string, string>
  pets: number
  /** How long a run with no answer may grow to; LONGEST_RUN_SECONDS by default. */
  longestSeconds?: number
}

/**
 * A run that got no answer in its time runs again, twice as long, up to this long: a tiny
 * run (the tests') on a busy machine can end before the first answer, and has no rate to
 * give. A run of the usual length with no answer fails at once.
 */
const LONGEST_RUN_SECONDS = 8

export async function measure (base: string, scenario: Scenario, options: MeasureOptions): Promise<Result> {
  const longest = Math.max(options.longestSeconds ?? LONGEST_RUN_SECONDS, options.seconds)
  for (let seconds = options.seconds; ; seconds *= 2) {
    const result = await measureFor(base, scenario, { ...options, seconds })
    if (result.rps > 0) return result
    if (seconds * 2 > longest) throw new Error(`${scenario.name} on ${base}: no answer in a run of ${seconds} s`)
  }
}

async function measureFor (base: string, scenario: Scenario, options: MeasureOptions): Promise<Result> {
  const extra = await scenario.extra?.(base) ?? {}
  const headers = { ...options.headers, ...extra, ...(scenario.body !== undefined && { 'content-type': scenario.contentType ?? 'application/json' }) }
  const body = scenario.body
  const cpu = process.cpuUsage()
  const began = performance.now()
  // Counts are sampled once a second, or once per run for a run shorter than a second (the
  // tests' tiny runs), which would otherwise last a whole second.
  const sampleMs = Math.min(1000, options.seconds * 1000)
  const perRequest = scenario.varies === true || typeof body === 'function' || scenario.uniqueKeys === true
  const draw = scenario.mix?.(options.pets)
  const result = await autocannon({
    url: base,
    connections: options.connections,
    duration: options.seconds,
    sampleInt: sampleMs,
    requests: [draw !== undefined
      ? drawnRequest(draw, headers)
      : {
          method: scenario.method ?? 'GET',
          headers,
          path: scenario.path(options.pets),
          ...(typeof body === 'string' && { body }),
          ...(perRequest && {
            setupRequest: (request: any) => ({
              ...request,
              path: scenario.path(options.pets),
              ...(typeof body === 'function' && { body: body() }),
              ...(scenario.uniqueKeys === true && { headers: { ...request.headers, 'idempotency-key': `bench-${++keys}` } })
            })
          })
        }]
  })
  const used = process.cpuUsage(cpu)
  const loadCpu = (used.user + used.system) / 1000 / (performance.now() - began) * 100
  // Answers with the status a scenario expects outside 2xx (a 304, a 409) are not failures.
  const expected = scenario.status === undefined || (scenario.status >= 200 && scenario.status < 300)
    ? 0
    : (result as any).statusCodeStats?.[scenario.status]?.count ?? 0
  const failures = result.errors + result.timeouts + result.non2xx - expected
  if (failures > 0) {
    const statuses = JSON.stringify((result as any).statusCodeStats ?? {})
    throw new Error(`${scenario.name} on ${base}: ${failures} failed requests (${result.errors} errors, ${result.timeouts} timeouts, statuses ${statuses})`)
  }
  return { rps: result.requests.average * 1000 / sampleMs, p50: result.latency.p50, p99: result.latency.p99, requests: result.requests.sent, loadCpu }
}

/** Autocannon's request, each one the mix's next: its method, path, and body with its type. */
function drawnRequest (draw: () => Drawn, headers: Record<string, string>) {
  return {
    method: 'GET' as const,
    headers,
    path: '/',
    setupRequest: (request: any) => {
      const next = draw()
      return next.body === undefined
        ? { ...request, method: next.method, path: next.path, body: undefined, headers }
        : { ...request, method: next.method, path: next.path, body: next.body, headers: { ...headers, 'content-type': 'application/json' } }
    }
  }
}

export function median (numbers: number[]): number {
  const sorted = [...numbers].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
