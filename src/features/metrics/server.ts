/**
 * The metrics listener: Prometheus text at `/metrics`, on a port of its own (METRICS_PORT)
 * and an address of its own (METRICS_HOST, not HOST), never on the API port, so it stays
 * inside the private network even when the API is served on every interface. Nothing else
 * is served there.
 */
import { once } from 'node:events'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Registry } from 'prom-client'

export interface MetricsServerOptions {
  port: number
  host: string
  /**
   * A scrape is one small GET: its headers must arrive within headersMs and the whole
   * request within requestMs, and an idle connection ends after keepAliveMs, so a client
   * that connects and stalls (slow-loris) cannot hold sockets for long.
   */
  timeouts: { headersMs: number, requestMs: number, keepAliveMs: number }
}

export interface MetricsServer {
  url: string
  /** Stops listening and ends every connection, idle or not, so none holds the process open. */
  close: () => Promise<void>
}

export async function startMetricsServer (registry: Registry, options: MetricsServerOptions): Promise<MetricsServer> {
  const { headersMs, requestMs, keepAliveMs } = options.timeouts
  const server = createServer({
    headersTimeout: headersMs,
    requestTimeout: requestMs,
    // How often Node checks those two deadlines (its default is 30 s).
    connectionsCheckingInterval: Math.min(1000, headersMs)
  }, (request, response) => {
    if (request.method !== 'GET' || request.url?.split('?', 1)[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics are at GET /metrics\n')
      return
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      () => response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics could not be collected\n'))
  })
  server.keepAliveTimeout = keepAliveMs
  server.listen(options.port, options.host)
  await once(server, 'listening')
  const address = server.address() as AddressInfo
  const shown = address.family === 'IPv6' ? `[${address.address}]` : address.address
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: async () => {
      const closed = once(server, 'close')
      server.close()
      // A scrape cut short costs nothing (Prometheus marks the target down), and a
      // connection left open would keep the drain waiting.
      server.closeAllConnections()
      await closed
    }
  }
}
