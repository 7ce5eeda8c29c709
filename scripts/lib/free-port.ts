/**
 * A TCP port nothing listens on now: one the system just gave out and took back. A port
 * drawn at random could be one the system hands out for outgoing connections. Shared by the
 * benchmark and the tests that start a server on a port they must know first.
 */
import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'

export async function freePort (): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  await new Promise((resolve) => server.close(resolve))
  return port
}
