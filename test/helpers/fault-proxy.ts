/**
 * A TCP proxy between the service and PostgreSQL or Redis that a test can make misbehave,
 * the way networks and servers fail in production:
 * - `stall()`: connections stay open but nothing gets through, in either direction (a
 *   black-holed network, a frozen server); bytes sent meanwhile are lost;
 * - `pause()` then `resume()`: bytes are held, then delivered late (a long GC pause, a
 *   saturated link);
 * - `cut()`: every open connection is reset (a restart, a failover);
 * - `pass()`: back to forwarding, for open connections and new ones.
 * Listens on 127.0.0.1 only; closed at the end of the test.
 */
import { createServer, connect, type Socket } from 'node:net'
import type { AddressInfo } from 'node:net'
import type { Test } from 'tap'

type Mode = 'pass' | 'pause' | 'stall'

interface Pair { client: Socket, upstream: Socket, held: Array<{ to: Socket, chunk: Buffer }> }

export interface FaultProxy {
  port: number
  /** `url` with its host and port replaced by the proxy's. */
  through: (url: string) => string
  pass: () => void
  pause: () => void
  resume: () => void
  stall: () => void
  cut: () => void
  /** Connections open now. */
  readonly connections: number
}

/**
 * Resets a connection, as a crashed peer would. One whose peer has already ended it is
 * shutting down: Node 20 cannot reset that one and leaks its handle, and the test process
 * then never exits, so it is just closed.
 */
function reset (socket: Socket): void {
  if (socket.writableEnded) socket.destroy()
  else socket.resetAndDestroy()
}

export async function faultProxy (t: Test, target: string): Promise<FaultProxy> {
  const { hostname, port: targetPort } = new URL(target)
  let mode: Mode = 'pass'
  const pairs = new Set<Pair>()

  function forward (pair: Pair, to: Socket, chunk: Buffer): void {
    if (mode === 'pass') to.write(chunk)
    else if (mode === 'pause') pair.held.push({ to, chunk })
    // 'stall': the bytes are lost, as on a black-holed network.
  }

  const server = createServer((client) => {
    const upstream = connect(Number(targetPort), hostname === 'localhost' ? '127.0.0.1' : hostname)
    const pair: Pair = { client, upstream, held: [] }
    pairs.add(pair)
    client.on('data', (chunk) => forward(pair, upstream, chunk))
    upstream.on('data', (chunk) => forward(pair, client, chunk))
    const close = () => {
      pairs.delete(pair)
      client.destroy()
      upstream.destroy()
    }
    client.on('close', close).on('error', close)
    upstream.on('close', close).on('error', close)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port

  function flush (): void {
    for (const pair of pairs) {
      for (const { to, chunk } of pair.held) to.write(chunk)
      pair.held = []
    }
  }

  function cut (): void {
    for (const pair of pairs) {
      reset(pair.client)
      reset(pair.upstream)
    }
    pairs.clear()
  }

  t.teardown(() => new Promise<void>((resolve) => {
    cut()
    server.close(() => resolve())
  }))

  return {
    port,
    through (url) {
      const parsed = new URL(url)
      parsed.hostname = '127.0.0.1'
      parsed.port = String(port)
      return parsed.toString()
    },
    pass () { mode = 'pass'; flush() },
    pause () { mode = 'pause' },
    resume () { mode = 'pass'; flush() },
    stall () { mode = 'stall' },
    cut,
    get connections () { return pairs.size }
  }
}
