/**
 * For the webhook rows of `npm run bench`: a fast receiver in this process, which answers
 * every delivery 204 at once and keeps, for each, when it came and how long after its
 * event's `timestamp` (when its change was written, just before its commit); and creates
 * sent at a steady rate, whatever the answers' pace.
 */
import { once } from 'node:events'
import { Agent, createServer, request } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface BenchReceiver {
  url: string
  /** Deliveries received, in all. */
  readonly count: number
  /** Each delivery's lag from its event's timestamp to its receipt, in ms, with when it came. */
  readonly received: ReadonlyArray<{ at: number, lagMs: number }>
  close: () => Promise<void>
}

// The envelope's `timestamp`, read without parsing the whole body.
const TIMESTAMP = /"timestamp":"([^"]+)"/

export async function startBenchReceiver (): Promise<BenchReceiver> {
  const received: Array<{ at: number, lagMs: number }> = []
  const server = createServer((req, res) => {
    let body = ''
    req.setEncoding('utf8')
    req.on('data', (chunk: string) => { body += chunk })
    req.on('end', () => {
      const at = Date.now()
      const timestamp = TIMESTAMP.exec(body)?.[1]
      received.push({ at, lagMs: timestamp === undefined ? Number.NaN : at - Date.parse(timestamp) })
      res.writeHead(204).end()
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    get count () { return received.length },
    received,
    close: async () => {
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
}

/**
 * POSTs `body` to `base` + `path`, `rate` a second for `seconds`, in ticks of 10 ms, from a
 * pool of keep-alive connections; resolves once every answer came, with how many were not
 * a 2xx.
 */
export async function steadyPosts (base: string, path: string, body: string, headers: Record<string, string>, rate: number, seconds: number): Promise<{ sent: number, failed: number }> {
  const url = new URL(path, base)
  const agent = new Agent({ keepAlive: true, maxSockets: 64 })
  const answers: Array<Promise<boolean>> = []
  const post = () => new Promise<boolean>((resolve) => {
    const req = request(url, { method: 'POST', agent, headers: { ...headers, 'content-type': 'application/json' } }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300))
    })
    req.on('error', () => resolve(false))
    req.end(body)
  })
  const started = performance.now()
  const total = Math.round(rate * seconds)
  while (answers.length < total) {
    // As many as are due by now: a late tick catches up rather than lowering the rate.
    const due = Math.min(total, Math.floor((performance.now() - started) / 1000 * rate))
    while (answers.length < due) answers.push(post())
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  const ok = await Promise.all(answers)
  agent.destroy()
  return { sent: ok.length, failed: ok.filter((answer) => !answer).length }
}

/** The value at `fraction` (0.5, 0.99) of `values`, by rank. */
export function percentile (values: readonly number[], fraction: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!
}
