/**
 * The metrics listener: Prometheus text at `/metrics`, on a port of its own (METRICS_PORT)
 * and an address of its own (METRICS_HOST, not HOST), never on the API port, so it stays
 * inside the private network even when the API is served on every interface. Nothing else
 * is served there.
 */
import { once } from 'node:events'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Registry } from 'prom-client'

export async function startMetricsServer (registry: Registry, port: number, host: string): Promise<{ server: Server, url: string }> {
  const server = createServer((request, response) => {
    if (request.method !== 'GET' || request.url?.split('?', 1)[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics are at GET /metrics\n')
      return
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics could not be collected\n'))
  })
  server.listen(port, host)
  await once(server, 'listening')
  const address = server.address() as AddressInfo
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return { server, url: `http://${shown}:${address.port}/metrics` }
}
