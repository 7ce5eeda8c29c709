/**
 * Slow and malformed clients against the real process: they get an Error body and their
 * connection closed, and they cannot pin the server.
 */
import { connect, type Socket } from 'node:net'
import t from 'tap'
import { startServer, type ServerProcess } from '../helpers/process.ts'

/** Everything the server sends on a socket until it closes it. */
function exchange (port: number, send: (socket: Socket) => void): Promise<{ response: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => send(socket))
    let response = ''
    socket.on('data', (chunk) => { response += chunk })
    socket.on('error', () => {})
    socket.on('close', () => resolve({ response }))
    setTimeout(() => { socket.destroy(); reject(new Error(`socket still open after 30 s; got: ${response}`)) }, 30_000).unref()
  })
}

function errorBody (response: string) {
  return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4))
}

let server: ServerProcess
t.before(async () => {
  server = await startServer(t, { PETSTORE_API_KEYS: 'timeouts-test-key-not-a-secret', HEADERS_TIMEOUT_MS: '1000', REQUEST_TIMEOUT_MS: '2000' })
})

t.test('headers that never finish get 408 request_timeout and a closed socket', async (t) => {
  // `exchange` resolves once the server closes the socket (else fails after a generous
  // ceiling): no bound on how soon is asserted, since a busy machine decides that.
  const { response } = await exchange(server.port, (socket) => {
    socket.write('GET /healthz HTTP/1.1\r\nHost: localhost\r\n')
    const drip = setInterval(() => { if (!socket.destroyed) socket.write('X-Slow: 1\r\n') }, 200)
    socket.on('close', () => clearInterval(drip))
  })
  t.match(response, /^HTTP\/1\.1 408 Request Timeout\r\n/)
  t.match(response, /\r\nContent-Type: application\/json; charset=utf-8\r\n/)
  t.same(errorBody(response), { code: 'request_timeout', message: 'The request was not received in time', status: 408 })
})

t.test('slow clients do not pin the server', async (t) => {
  const slow = Array.from({ length: 50 }, () => exchange(server.port, (socket) => socket.write('GET /healthz HTTP/1.1\r\n')))
  const res = await fetch(`${server.base}/healthz`)
  t.equal(res.status, 200, 'a normal request is served meanwhile')
  const closed = await Promise.all(slow)
  t.ok(closed.every(({ response }) => response.startsWith('HTTP/1.1 408 ')), 'every slow connection was closed with 408')
})

t.test('oversized headers get 431 headers_too_large', async (t) => {
  const { response } = await exchange(server.port, (socket) =>
    socket.write(`GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`))
  t.match(response, /^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/)
  t.same(errorBody(response), { code: 'headers_too_large', message: 'The request headers are too large', status: 431 })
})

t.test('malformed HTTP gets 400 invalid_request', async (t) => {
  const { response } = await exchange(server.port, (socket) => socket.write('THIS IS NOT HTTP\r\n\r\n'))
  t.match(response, /^HTTP\/1\.1 400 Bad Request\r\n/)
  t.same(errorBody(response), { code: 'invalid_request', message: 'Malformed HTTP request', status: 400 })
})
