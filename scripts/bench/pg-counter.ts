/**
 * Round trips to PostgreSQL, counted on the wire: a TCP proxy in front of the server that
 * reads what its clients send (PostgreSQL's protocol, version 3) and counts the messages
 * that each wait for the server's answer: a simple Query (`Q`), or a Sync (`S`), which ends
 * an extended query (Parse, Bind, Describe, Execute). It also counts the statements run
 * (`Q` and Execute `E`). node-postgres sends one statement per round trip.
 *
 * Used by `npm run bench` without pg_stat_statements (which must be loaded at the
 * server's start) and on its own instances of each server, for a counting pass of
 * sequential requests: the proxy runs in the benchmark's process, and would slow the timed
 * runs if they went through it.
 */
import { connect, createServer, type Socket } from 'node:net'

export interface Counts { roundTrips: number, statements: number }

export interface PgCounter {
  /** `url` with its host and port replaced by the proxy's. */
  through: (url: string) => string
  counts: () => Counts
  close: () => Promise<void>
}

// Sent before the startup message, without a type byte; the server answers them with one byte.
const SSL_REQUEST = 80877103
const GSSENC_REQUEST = 80877104

export async function countingProxy (target: string): Promise<PgCounter> {
  const { hostname, port } = new URL(target)
  const counts: Counts = { roundTrips: 0, statements: 0 }
  const sockets = new Set<Socket>()
  const proxy = createServer((client) => {
    const server = connect(Number(port || 5432), hostname)
    for (const socket of [client, server]) {
      sockets.add(socket)
      socket.on('close', () => sockets.delete(socket))
      socket.on('error', () => { client.destroy(); server.destroy() })
    }
    client.on('end', () => server.end())
    server.on('end', () => client.end())
    server.pipe(client)
    let pending: Buffer = Buffer.alloc(0)
    let startup = true
    client.on('data', (chunk: Buffer) => {
      server.write(chunk)
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk])
      let at = 0
      for (;;) {
        if (startup) {
          if (pending.length - at < 8) break
          const length = pending.readInt32BE(at)
          if (pending.length - at < length) break
          const code = pending.readInt32BE(at + 4)
          if (code !== SSL_REQUEST && code !== GSSENC_REQUEST) startup = false
          at += length
        } else {
          if (pending.length - at < 5) break
          const length = pending.readInt32BE(at + 1)
          if (pending.length - at < 1 + length) break
          const type = String.fromCharCode(pending[at]!)
          if (type === 'Q' || type === 'S') counts.roundTrips++
          if (type === 'Q' || type === 'E') counts.statements++
          at += 1 + length
        }
      }
      pending = pending.subarray(at)
    })
  })
  await new Promise<void>((resolve, reject) => {
    proxy.once('error', reject)
    proxy.listen(0, '127.0.0.1', () => resolve())
  })
  const proxyPort = (proxy.address() as { port: number }).port
  return {
    through (url) {
      const proxied = new URL(url)
      proxied.hostname = '127.0.0.1'
      proxied.port = String(proxyPort)
      return proxied.toString()
    },
    counts: () => ({ ...counts }),
    close () {
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => proxy.close(() => resolve()))
    }
  }
}
