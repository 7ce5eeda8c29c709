/**
 * What the service writes on a connection Node's HTTP parser refused before any route ran
 * (the real process is tested in test/process/timeouts.test.ts; this covers each case in-process).
 */
import t from 'tap'
import { clientErrorHandler } from '../../src/http/parser-errors.ts'

function fakeSocket (writable = true) {
  const socket = { written: '', destroyed: false, writable, write (text: string) { socket.written += text }, destroy () { socket.destroyed = true } }
  return socket
}

const error = (code: string) => Object.assign(new Error(code), { code })

t.test('each parser error gets its status and the Error body, then the connection closes', async (t) => {
  const cases: Array<[string, string, string]> = [
    ['ERR_HTTP_REQUEST_TIMEOUT', '408 Request Timeout', '{"code":"request_timeout","message":"The request was not received in time","status":408}'],
    ['HPE_HEADER_OVERFLOW', '431 Request Header Fields Too Large', '{"code":"headers_too_large","message":"The request headers are too large","status":431}'],
    ['HPE_INVALID_METHOD', '400 Bad Request', '{"code":"invalid_request","message":"Malformed HTTP request","status":400}']
  ]
  for (const [code, status, body] of cases) {
    const socket = fakeSocket()
    clientErrorHandler(error(code), socket as never)
    t.equal(socket.written, `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`, code)
    t.ok(socket.destroyed, `${code}: closed`)
  }
})

t.test('a reset, destroyed or unwritable connection gets nothing written', async (t) => {
  const reset = fakeSocket()
  clientErrorHandler(error('ECONNRESET'), reset as never)
  t.equal(reset.written, '')
  const unwritable = fakeSocket(false)
  clientErrorHandler(error('HPE_INVALID_METHOD'), unwritable as never)
  t.equal(unwritable.written, '')
  t.ok(unwritable.destroyed)
})
