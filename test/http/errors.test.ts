import type { AddressInfo } from 'node:net'
import { connect } from 'node:net'
import t from 'tap'
import { API_SECURITY_HEADERS } from '../../src/http/security-headers.ts'
import { AUTH, build } from '../helpers/app.ts'
import { errorBody, JSON_TYPE } from '../helpers/answers.ts'
import { allowOf, unservedMethods } from '../helpers/methods.ts'

t.test('an unknown route answers 404 not_found', async (t) => {
  const app = await build(t)
  const outside = await app.inject({ url: '/nothing?x=1' })
  t.equal(outside.statusCode, 404)
  t.equal(outside.headers['content-type'], JSON_TYPE)
  t.same(outside.json(), errorBody('not_found', 'No route GET /nothing', 404))
  const inside = await app.inject({ method: 'POST', url: '/v1/nothing', headers: AUTH })
  t.equal(inside.statusCode, 404)
  t.same(inside.json(), errorBody('not_found', 'No route POST /v1/nothing', 404))
})

t.test('a known path with another method answers 405 with Allow', async (t) => {
  const app = await build(t)
  // Every method the document does not serve on the pets' two paths, with the Allow it serves there.
  const cases = (['/pets', '/pets/:petId'] as const).flatMap((path) =>
    unservedMethods(path).map((method) => [method, `/v1${path.replace(':petId', '1')}`, allowOf(path)] as const))
  t.ok(cases.some(([method, url]) => method === 'OPTIONS' && url === '/v1/pets'), 'OPTIONS among them: no operation serves it')
  t.ok(cases.every(([, , allow]) => allow.includes('GET, HEAD')), 'each path is read, and so takes HEAD')
  for (const [method, url, allow] of cases) {
    const res = await app.inject({ method, url, headers: AUTH })
    t.equal(res.statusCode, 405, `${method} ${url}`)
    t.equal(res.headers.allow, allow)
    t.equal(res.headers['content-type'], JSON_TYPE)
    t.same(res.json(), errorBody('method_not_allowed', `Method ${method} is not allowed on ${url.replace(/1$/, ':petId')}`, 405))
  }
})

t.test('HEAD is served wherever GET is', async (t) => {
  const app = await build(t)
  const res = await app.inject({ method: 'HEAD', url: '/v1/pets', headers: AUTH })
  t.equal(res.statusCode, 200)
  t.equal(res.body, '')
})

t.test('a crash answers 500 internal_error and shows nothing of it', async (t) => {
  const app = await build(t)
  // A route that fails the way a bug would, with a secret in its message and stack.
  app.get('/v1/crash', async () => { throw new Error('SELECT secret FROM somewhere failed') })
  const res = await app.inject({ url: '/v1/crash', headers: { ...AUTH, 'x-request-id': 'trace-500' } })
  t.equal(res.statusCode, 500)
  t.equal(res.headers['content-type'], JSON_TYPE)
  t.equal(res.headers['x-request-id'], 'trace-500')
  t.equal(res.body, JSON.stringify(errorBody('internal_error', 'Internal server error (request id trace-500)', 500)))
})

t.test('a malformed URL answers 400 invalid_request, with the request id and the security headers', async (t) => {
  const app = await build(t)
  for (const url of ['/v1/pets/%E0%A4%A', '/v1/pets/%zz']) {
    const res = await app.inject({ url, headers: { ...AUTH, 'x-request-id': 'bad-url-1' } })
    t.equal(res.statusCode, 400)
    t.equal(res.headers['content-type'], JSON_TYPE)
    t.equal(res.headers['x-request-id'], 'bad-url-1')
    t.match(res.headers, API_SECURITY_HEADERS)
    t.equal(res.headers['cache-control'], 'no-store')
    t.same(res.json(), errorBody('invalid_request', `'${url}' is not a valid url component`, 400))
  }
})

/** Sends raw bytes over a socket and reads the whole answer. */
async function raw (port: number, request: string): Promise<string> {
  const socket = connect(port, '127.0.0.1')
  socket.end(request)
  let answer = ''
  for await (const chunk of socket) answer += chunk
  return answer
}

t.test('an HTTP/1.1 request without Host answers the Error body, not an empty 400', async (t) => {
  const app = await build(t)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  const answer = await raw(port, 'GET /v1/pets HTTP/1.1\r\nX-Request-Id: no-host-1\r\nConnection: close\r\n\r\n')
  const [head, body] = answer.split('\r\n\r\n')
  t.match(head, /^HTTP\/1\.1 400 Bad Request\r\n/)
  t.match(head, /\r\nx-request-id: no-host-1\r\n/i)
  t.match(head, /\r\nx-content-type-options: nosniff\r\n/i)
  t.match(head, /\r\ncontent-type: application\/json; charset=utf-8\r\n/i)
  t.same(JSON.parse(body!), errorBody('invalid_request', 'An HTTP/1.1 request needs a Host header', 400))
  const old = await raw(port, 'GET /v1/pets HTTP/1.0\r\n\r\n')
  t.match(old, /^HTTP\/1\.1 401 /, 'HTTP/1.0 has no Host header to send, and is served')
})

t.test('any other client error a framework raises keeps its message, as invalid_request', async (t) => {
  const app = await build(t)
  // The shape of @fastify/error's errors: a code, a 4xx statusCode and a safe message.
  app.get('/v1/framework-refusal', async () => {
    throw Object.assign(new Error('Unsupported range'), { code: 'FST_ERR_SOMETHING', statusCode: 416 })
  })
  const res = await app.inject({ url: '/v1/framework-refusal', headers: AUTH })
  t.equal(res.statusCode, 400)
  t.equal(res.headers['content-type'], JSON_TYPE)
  t.same(res.json(), errorBody('invalid_request', 'Unsupported range', 400))
})
