/**
 * One delivery attempt against real receivers on 127.0.0.1 (let through by the allowed
 * networks, as WEBHOOK_ALLOWED_NETWORKS will): the request the receiver gets, and how each
 * kind of answer or failure is classified. A refused address is never sent a byte.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { once } from 'node:events'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { parseNetworks } from '../../../src/config/values.ts'
import { attemptDelivery, retryAfterMs } from '../../../src/features/webhooks/attempt.ts'

const LOOPBACK = parseNetworks('127.0.0.0/8')
const BODY = '{"id":"evt_x","type":"pet.created"}'
const HEADERS = { 'webhook-id': 'evt_x', 'webhook-timestamp': '1795305600', 'webhook-signature': 'v1,c2lnbmF0dXJl' }

interface Received { method: string, headers: IncomingMessage['headers'], body: string }

/** A receiver that answers with `answer`, and the requests it got. */
async function receiver (t: Test, answer: (response: ServerResponse) => void) {
  const received: Received[] = []
  const server = createServer((request, response) => {
    let body = ''
    request.setEncoding('utf8')
    request.on('data', (chunk: string) => { body += chunk })
    request.on('end', () => {
      received.push({ method: request.method!, headers: request.headers, body })
      answer(response)
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  t.teardown(() => { server.closeAllConnections(); server.close() })
  return { url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook?x=1`), received }
}

const attempt = (url: URL, allowed = LOOPBACK, timeoutMs = 5000) => attemptDelivery(url, HEADERS, BODY, { timeoutMs, allowed })

t.test('a 2xx is success: the receiver gets a POST of the body with the webhook headers', async (t) => {
  const { url, received } = await receiver(t, (response) => response.writeHead(204).end())
  const result = await attempt(url)
  t.match(result, { succeeded: true, status: 204 })
  t.notOk('error' in result)
  t.ok(result.durationMs >= 0)
  t.equal(received.length, 1)
  t.equal(received[0]!.method, 'POST')
  t.equal(received[0]!.body, BODY)
  t.match(received[0]!.headers, { ...HEADERS, 'content-type': 'application/json', 'content-length': String(BODY.length) })
})

t.test('any other answer is a failure, classified; a redirect is not followed', async (t) => {
  const target = await receiver(t, (response) => response.writeHead(200).end())
  const cases: Array<[(response: ServerResponse) => void, object]> = [
    [(response) => response.writeHead(500).end('broken'), { succeeded: false, status: 500, error: 'http_status' }],
    [(response) => response.writeHead(410).end(), { succeeded: false, status: 410, error: 'http_status' }],
    [(response) => response.writeHead(302, { location: target.url.href }).end(), { succeeded: false, status: 302, error: 'redirect' }],
    [(response) => response.writeHead(429, { 'retry-after': '7' }).end(), { succeeded: false, status: 429, error: 'http_status', retryAfterMs: 7000 }],
    [(response) => response.writeHead(503, { 'retry-after': 'soon' }).end(), { succeeded: false, status: 503, error: 'http_status', retryAfterMs: Number.POSITIVE_INFINITY }],
    [(response) => response.writeHead(400, { 'retry-after': '7' }).end(), { succeeded: false, status: 400, error: 'http_status' }],
    // A 2xx whose body never ends is decided by its status.
    [(response) => { response.writeHead(200); response.write('x'.repeat(1024 * 1024)) }, { succeeded: true, status: 200 }]
  ]
  for (const [answer, expected] of cases) {
    const { url } = await receiver(t, answer)
    const result = await attempt(url)
    t.match(result, expected)
    if (!('retryAfterMs' in expected)) t.notOk('retryAfterMs' in result, 'no Retry-After taken from it')
  }
  t.equal(target.received.length, 0, 'the redirect target was never called')
})

t.test('a receiver that never answers is a timeout; a closed port is refused', async (t) => {
  const { url } = await receiver(t, () => {})
  t.match(await attempt(url, LOOPBACK, 200), { succeeded: false, error: 'timeout' })
  // A port where no one listens any more.
  const nobody = createServer()
  nobody.listen(0, '127.0.0.1')
  await once(nobody, 'listening')
  const free = (nobody.address() as AddressInfo).port
  nobody.close()
  await once(nobody, 'close')
  t.match(await attempt(new URL(`http://127.0.0.1:${free}/`)), { succeeded: false, error: 'connection_refused' })
})

t.test('an address outside the allowed networks is never sent a byte, literal or resolved', async (t) => {
  const { url, received } = await receiver(t, (response) => response.writeHead(204).end())
  t.match(await attempt(url, []), { succeeded: false, error: 'address_not_allowed' }, 'a loopback literal, nothing allowed')
  const named = new URL(url.href.replace('127.0.0.1', 'receiver.example.com'))
  const resolving = (addresses: string[]) => attemptDelivery(named, HEADERS, BODY, { timeoutMs: 5000, allowed: [], lookup: async () => addresses })
  t.match(await resolving(['127.0.0.1']), { succeeded: false, error: 'address_not_allowed' }, 'a name that now points to loopback')
  t.match(await resolving(['10.0.0.7', '169.254.169.254']), { succeeded: false, error: 'address_not_allowed' })
  t.equal(received.length, 0)
  // Plain http only inside the allowed networks, even to a public address.
  t.match(await attemptDelivery(new URL('http://93.184.216.34/'), HEADERS, BODY, { timeoutMs: 5000, allowed: LOOPBACK }), { succeeded: false, error: 'address_not_allowed' })
  const allowedByName = await attemptDelivery(named, HEADERS, BODY, { timeoutMs: 5000, allowed: LOOPBACK, lookup: async () => ['10.0.0.7', '127.0.0.1'] })
  t.match(allowedByName, { succeeded: true, status: 204 }, 'the allowed one of its addresses')
  t.equal(received.length, 1)
  t.match(await attemptDelivery(new URL(url.href.replace('127.0.0.1', 'nowhere.example.com')), HEADERS, BODY, {
    timeoutMs: 5000, allowed: LOOPBACK, lookup: async () => { throw Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }) }
  }), { succeeded: false, error: 'dns' })
})

t.test('Retry-After in seconds or as an HTTP date', async (t) => {
  const now = Date.parse('2026-11-27T10:00:00Z')
  t.equal(retryAfterMs('120', now), 120_000)
  t.equal(retryAfterMs(' 3 ', now), 3000)
  t.equal(retryAfterMs('Fri, 27 Nov 2026 10:01:00 GMT', now), 60_000)
  t.equal(retryAfterMs('Fri, 27 Nov 2026 09:00:00 GMT', now), 0, 'a date past is now')
  t.equal(retryAfterMs('9999999999999', now), 9_999_999_999_999_000, 'as large as it says: the schedule bounds it')
  t.equal(retryAfterMs('-5', now), Number.POSITIVE_INFINITY, 'no time at all: as long as the schedule allows')
  t.equal(retryAfterMs('soon', now), Number.POSITIVE_INFINITY)
  t.equal(retryAfterMs(undefined, now), undefined, 'none')
})
