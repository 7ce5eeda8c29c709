/**
 * The metrics listener's own limits: a client that stalls is cut off by its timeouts, and
 * closing it ends every connection, so none holds the process open.
 */
import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { Registry } from 'prom-client'
import t, { type Test } from 'tap'
import { until } from '../../helpers/until.ts'
import { tryConnect } from '../../helpers/process.ts'
import { DEFAULTS } from '../../../src/config/defaults.ts'
import { startMetricsServer, type MetricsServerOptions } from '../../../src/features/metrics/server.ts'

const DEFAULT_TIMEOUTS = { headersMs: DEFAULTS.timeouts.headersMs, requestMs: DEFAULTS.timeouts.requestMs, keepAliveMs: DEFAULTS.metricsKeepAliveMs }

async function listener (t: Test, timeouts: Partial<MetricsServerOptions['timeouts']> = {}) {
  const metrics = await startMetricsServer(new Registry(), { port: 0, host: '127.0.0.1', timeouts: { ...DEFAULT_TIMEOUTS, ...timeouts } })
  t.teardown(() => metrics.close())
  return { ...metrics, port: Number(new URL(metrics.url).port) }
}

/** A raw connection, what it has received, and whether it has closed. */
async function client (port: number, send: string) {
  const socket: Socket = connect(port, '127.0.0.1')
  const state = { received: '', closed: false, socket }
  socket.on('data', (chunk: Buffer) => { state.received += chunk })
  socket.on('error', () => {})
  socket.on('close', () => { state.closed = true })
  await once(socket, 'connect')
  socket.write(send)
  return state
}

const SCRAPE = 'GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'

t.test('a connection whose headers do not arrive within headersMs is answered 408 and closed', async (t) => {
  const { port } = await listener(t, { headersMs: 200, requestMs: 1000 })
  for (const send of ['', 'GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n']) {
    const stalled = await client(port, send)
    // The ceiling is far past 200 ms and short of the 10 s default: the option took effect.
    await until(() => stalled.closed, `the server to close a connection that sent ${JSON.stringify(send)}`, 5000)
    t.match(stalled.received, /^HTTP\/1\.1 408 Request Timeout\r\n/, `408 after ${JSON.stringify(send)}`)
  }
})

t.test('an idle connection ends after keepAliveMs', async (t) => {
  const { port } = await listener(t, { keepAliveMs: 200 })
  const scraper = await client(port, SCRAPE)
  await until(() => scraper.received.startsWith('HTTP/1.1 200 OK\r\n'), 'the scrape to be answered')
  t.match(scraper.received, /\r\nConnection: keep-alive\r\n/i, 'the connection is kept open at first')
  // The ceiling is far past 200 ms and short of the 5 s default: the option took effect.
  await until(() => scraper.closed, 'the server to close the idle connection', 2500)
})

t.test('close() ends idle and unfinished connections and stops listening', async (t) => {
  const metrics = await startMetricsServer(new Registry(), { port: 0, host: '127.0.0.1', timeouts: DEFAULT_TIMEOUTS })
  const port = Number(new URL(metrics.url).port)
  const idle = await client(port, SCRAPE)
  await until(() => idle.received.startsWith('HTTP/1.1 200 OK\r\n'), 'the scrape to be answered')
  const unfinished = await client(port, 'GET /metrics HTTP/1.1\r\n')
  t.teardown(() => { idle.socket.destroy(); unfinished.socket.destroy() })

  // With the default timeouts (10 s and more) neither would end by itself soon.
  await metrics.close()
  await until(() => idle.closed && unfinished.closed, 'both connections to end')
  t.equal(unfinished.received, '', 'the unfinished request got no answer')
  t.equal(await tryConnect(port, '127.0.0.1'), 'ECONNREFUSED', 'nothing listens any more')
})
