/**
 * Safe retries: a create whose answer is lost is sent again with the same Idempotency-Key
 * and makes one record; a cancel whose answer is lost still resolves; failures are retried
 * a bounded number of times, after the answer's Retry-After or a jittered backoff. Waits
 * are recorded through the `sleep` option, never timed.
 */
import t from 'tap'
import { PetstoreError } from '../src/index.ts'
import { backoffMs } from '../src/retry.ts'
import { clientOf, collect, listening } from './server.ts'
import { rowCount } from '../../test/helpers/store.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** The Error body answer `status` with `code`, as the service sends it. */
function refusal (status: number, code: string, headers: Record<string, string> = {}) {
  return new Response(JSON.stringify({ code, message: `${code} (test)`, status }), {
    status, headers: { 'content-type': 'application/json', 'x-request-id': `fake-${code}`, ...headers }
  })
}

/** A fetch that lets each request reach the service, but loses the first `lose` answers. */
function losing (lose: number) {
  const keys: Array<string | null> = []
  const fetch = async (request: Request) => {
    keys.push(request.headers.get('idempotency-key'))
    const response = await globalThis.fetch(request)
    if (keys.length > lose) return response
    await response.arrayBuffer()
    throw new TypeError('fetch failed')
  }
  return { keys, fetch }
}

t.test('a create whose answer is lost is retried with the same Idempotency-Key: one record', async (t) => {
  const { app, baseUrl } = await listening(t)
  const pets = losing(1)
  const pet = await clientOf(baseUrl, { fetch: pets.fetch }).createPet({ name: 'Rex', categoryId: 9007199254740993n })
  t.strictSame(pet, { id: 1, name: 'Rex', categoryId: 9007199254740993n }, 'the first answer, replayed')
  t.equal(pets.keys.length, 2)
  t.match(pets.keys[0], UUID, 'a generated key')
  t.equal(pets.keys[1], pets.keys[0], 'the retry carries the same key')
  t.equal(await rowCount(app, 'pets'), 1)
  t.strictSame(await collect(clientOf(baseUrl).listPets()), [pet])

  await clientOf(baseUrl).createPet({ name: 'Tom', categoryId: 1, status: 'available' })
  const orders = losing(2)
  const order = await clientOf(baseUrl, { fetch: orders.fetch }).placeOrder({ petId: 2 }, { idempotencyKey: 'order-tom' })
  t.strictSame(order, { id: 1, petId: 2, quantity: 1, complete: false }, 'the first answer, replayed (the pet is pending by then)')
  t.strictSame(orders.keys, ['order-tom', 'order-tom', 'order-tom'], 'the given key, on every attempt')
  t.equal(await rowCount(app, 'orders'), 1)
})

t.test('two creates are two records: each call has a key of its own', async (t) => {
  const { app, baseUrl } = await listening(t)
  const keys: Array<string | null> = []
  const client = clientOf(baseUrl, { fetch: (request) => { keys.push(request.headers.get('idempotency-key')); return globalThis.fetch(request) } })
  await client.createPet({ name: 'Rex', categoryId: 1 })
  await client.createPet({ name: 'Rex', categoryId: 1 })
  t.equal(await rowCount(app, 'pets'), 2)
  t.not(keys[0], keys[1])
})

t.test('a cancel whose answer is lost resolves: the retry finds the order gone', async (t) => {
  const { baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' })
  const order = await client.placeOrder({ petId: 1 })
  const lost = losing(1)
  await clientOf(baseUrl, { fetch: lost.fetch }).cancelOrder(order.id)
  t.equal(lost.keys.length, 2, 'sent twice')
  t.strictSame(await collect(client.listOrders()), [])
})

t.test('network failures are retried a bounded number of times, after growing jittered waits, then thrown', async (t) => {
  const failure = new TypeError('fetch failed')
  let attempts = 0
  const waits: number[] = []
  const client = clientOf('http://127.0.0.1:9/v1', {
    fetch: async () => { attempts++; throw failure },
    retry: { retries: undefined, minDelayMs: 100, maxDelayMs: 250, sleep: async (ms) => { waits.push(ms) } }
  })
  await t.rejects(client.listPetsPage(), failure, 'the last failure itself')
  t.equal(attempts, 4, 'once, then the default three retries')
  t.equal(waits.length, 3)
  const ceilings = [100, 200, 250]
  waits.forEach((ms, i) => t.ok(ms >= ceilings[i]! / 2 && ms <= ceilings[i]!, `wait ${i + 1}: ${ms} ms within [${ceilings[i]! / 2}, ${ceilings[i]}]`))
})

t.test('backoff doubles from minDelayMs up to maxDelayMs, with jitter in its upper half', async (t) => {
  for (const [retry, ceiling] of [[0, 10], [1, 20], [2, 40], [3, 50], [10, 50]] as const) {
    for (let i = 0; i < 20; i++) {
      const ms = backoffMs(retry, 10, 50)
      if (ms < ceiling / 2 || ms > ceiling) t.fail(`retry ${retry}: ${ms} ms outside [${ceiling / 2}, ${ceiling}]`)
    }
  }
  t.pass('every delay within its bounds')
})

t.test('429, 503 and 409 idempotency_key_in_use are retried; the answer that follows is returned', async (t) => {
  const { baseUrl } = await listening(t)
  const first = [
    refusal(429, 'rate_limited', { 'retry-after': '2' }),
    refusal(503, 'unavailable', { 'retry-after': '0' }),
    refusal(409, 'idempotency_key_in_use')
  ]
  const keys: Array<string | null> = []
  const waits: number[] = []
  const client = clientOf(baseUrl, {
    fetch: async (request) => { keys.push(request.headers.get('idempotency-key')); return first.shift() ?? globalThis.fetch(request) },
    retry: { minDelayMs: 8, maxDelayMs: 8, sleep: async (ms) => { waits.push(ms) } }
  })
  t.strictSame(await client.createPet({ name: 'Rex', categoryId: 1 }), { id: 1, name: 'Rex', categoryId: 1 })
  t.strictSame(waits.slice(0, 2), [2000, 0], 'Retry-After, in seconds, is waited exactly')
  t.ok(waits[2]! >= 4 && waits[2]! <= 8, 'without Retry-After: the backoff')
  t.equal(new Set(keys).size, 1, 'one key on all four attempts')
})

t.test('a 409 that is not idempotency_key_in_use, and a 409 in use on a request without a key, are not retried', async (t) => {
  let attempts = 0
  const client = clientOf('http://127.0.0.1:9/v1', { fetch: async () => { attempts++; return refusal(409, attempts === 1 ? 'conflict' : 'idempotency_key_in_use') } })
  await t.rejects(client.cancelOrder(1), { name: 'PetstoreError', status: 409, code: 'conflict' })
  await t.rejects(client.cancelOrder(1), { name: 'PetstoreError', status: 409, code: 'idempotency_key_in_use' })
  t.equal(attempts, 2)
  const garbled = clientOf('http://127.0.0.1:9/v1', { fetch: async () => new Response('{not json', { status: 409 }) })
  await t.rejects(garbled.createPet({ name: 'Rex', categoryId: 1 }), { status: 409, code: 'unexpected_response' })
})

t.test('a Retry-After longer than maxRetryAfterMs is not waited for: thrown at once', async (t) => {
  let attempts = 0
  const client = clientOf('http://127.0.0.1:9/v1', {
    fetch: async () => { attempts++; return refusal(429, 'rate_limited', { 'retry-after': '3600' }) },
    retry: { maxRetryAfterMs: 60_000, sleep: async () => { t.fail('no wait') } }
  })
  const error = await client.listPetsPage().catch((error: unknown) => error) as PetstoreError
  t.ok(error instanceof PetstoreError)
  t.strictSame({ status: error.status, code: error.code, message: error.message, requestId: error.requestId, retryAfter: error.retryAfter },
    { status: 429, code: 'rate_limited', message: 'rate_limited (test)', requestId: 'fake-rate_limited', retryAfter: 3600 })
  t.equal(attempts, 1)
})

t.test('retry: false sends each request once', async (t) => {
  let attempts = 0
  const client = clientOf('http://127.0.0.1:9/v1', { retry: false, fetch: async () => { attempts++; return refusal(503, 'unavailable', { 'retry-after': '1' }) } })
  await t.rejects(client.listPetsPage(), { status: 503, code: 'unavailable', retryAfter: 1 })
  const failure = new TypeError('fetch failed')
  const offline = clientOf('http://127.0.0.1:9/v1', { retry: false, fetch: async () => { attempts++; throw failure } })
  await t.rejects(offline.createPet({ name: 'Rex', categoryId: 1 }), failure)
  t.equal(attempts, 2)
})

t.test('the call\'s signal ends a wait between retries, and is never retried itself', async (t) => {
  const waiting = new AbortController()
  const client = clientOf('http://127.0.0.1:9/v1', {
    retry: {}, // the real timer: the abort ends a 30 s wait
    fetch: async () => { setTimeout(() => waiting.abort(), 5); return refusal(503, 'unavailable', { 'retry-after': '30' }) }
  })
  await t.rejects(client.listPetsPage({}, { signal: waiting.signal }), { name: 'AbortError' })

  const before = new AbortController()
  let attempts = 0
  const aborting = clientOf('http://127.0.0.1:9/v1', {
    fetch: async () => { attempts++; before.abort(); return refusal(429, 'rate_limited', { 'retry-after': '30' }) }
  })
  await t.rejects(aborting.listPetsPage({}, { signal: before.signal }), { name: 'AbortError' }, 'aborted before the wait began')

  const during = new AbortController()
  const cut = clientOf('http://127.0.0.1:9/v1', {
    fetch: async () => { attempts++; during.abort(); throw new DOMException('This operation was aborted', 'AbortError') }
  })
  await t.rejects(cut.getPet(1, { signal: during.signal }), { name: 'AbortError' })
  t.equal(attempts, 2, 'an aborted request is not sent again')
})
