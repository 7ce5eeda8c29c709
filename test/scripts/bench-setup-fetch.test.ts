/**
 * The benchmark's set-up requests send a 503 with Retry-After again after that delay, as a
 * client should, and give up after a few; any other answer is theirs at once.
 */
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { setupFetch } from '../../scripts/bench/setup-fetch.ts'

/** A server answering its requests in turn with `answers`, then 201; what it was asked, counted. */
async function server (t: Test, answers: Array<(res: ServerResponse) => void>) {
  let asked = 0
  const http = createServer((_req, res) => {
    const answer = answers[asked++]
    if (answer === undefined) res.writeHead(201).end('made')
    else answer(res)
  })
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve))
  t.teardown(() => { http.close() })
  return { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/`, asked: () => asked }
}

const shed = (res: ServerResponse) => res.writeHead(503, { 'retry-after': '0' }).end('overloaded')

t.test('a 503 with Retry-After is sent again, until it is served', async (t) => {
  const { url, asked } = await server(t, [shed, shed])
  const res = await setupFetch(url, { method: 'POST', body: '{}' })
  t.equal(res.status, 201)
  t.equal(await res.text(), 'made')
  t.equal(asked(), 3)
})

t.test('five 503s in a row: the last is the answer', async (t) => {
  const { url, asked } = await server(t, Array.from({ length: 6 }, () => shed))
  const res = await setupFetch(url)
  t.equal(res.status, 503)
  t.equal(await res.text(), 'overloaded')
  t.equal(asked(), 5)
})

t.test('a 503 without Retry-After, or any other status, is the answer at once', async (t) => {
  for (const [status, headers] of [[503, {}], [503, { 'retry-after': 'Wed, 21 Oct 2026 07:28:00 GMT' }], [500, { 'retry-after': '0' }]] as const) {
    const { url, asked } = await server(t, [(res) => res.writeHead(status, headers).end('no')])
    const res = await setupFetch(url)
    t.equal(res.status, status)
    t.equal(asked(), 1, `${status} ${JSON.stringify(headers)}: asked once`)
  }
})
