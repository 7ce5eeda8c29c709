/**
 * Every error the service can send the client's calls, from a real listening service:
 * each becomes a thrown PetstoreError with the answer's status, code, message, request id
 * and Retry-After. Retries are off here (retry.test.ts covers them), except where the
 * retried answers are the point.
 */
import t, { type Test } from 'tap'
import { PetstoreError, type PetstoreErrorCode } from '../src/index.ts'
import { handlers } from '../../src/features/handlers.ts'
import { AUTH } from '../../test/helpers/app.ts'
import { until } from '../../test/helpers/until.ts'
import { clientOf, listening } from './server.ts'
import { rowCount } from '../../test/helpers/store.ts'

/** A fetch that keeps the last answer's request id and Retry-After. */
function watching () {
  const seen = { requestId: '', retryAfter: [] as string[] }
  const fetch = async (request: Request) => {
    const response = await globalThis.fetch(request)
    seen.requestId = response.headers.get('x-request-id')!
    seen.retryAfter.push(response.headers.get('retry-after') ?? '')
    return response
  }
  return { seen, fetch }
}

interface Expected { status: number, code: PetstoreErrorCode, message: string, requestId: string | undefined, retryAfter?: number }

async function rejectsWith (t: Test, call: Promise<unknown>, expected: () => Expected) {
  const error = await call.then(() => undefined, (error: unknown) => error)
  t.ok(error instanceof PetstoreError, 'a PetstoreError')
  const { name, status, code, message, requestId, retryAfter } = error as PetstoreError
  t.strictSame({ name, status, code, message, requestId, retryAfter }, { name: 'PetstoreError', retryAfter: undefined, ...expected() })
}

t.test('400 invalid_request, 404 not_found, 422 idempotency_key_reused, 409 conflict', async (t) => {
  const { baseUrl } = await listening(t)
  const { seen, fetch } = watching()
  const client = clientOf(baseUrl, { fetch, retry: false })
  await rejectsWith(t, client.listPetsPage({ limit: 101 }), () =>
    ({ status: 400, code: 'invalid_request', message: 'querystring/limit must be <= 100', requestId: seen.requestId }))
  await rejectsWith(t, client.createPet({ name: '', categoryId: 1 }), () =>
    ({ status: 400, code: 'invalid_request', message: 'body/name must NOT have fewer than 1 characters', requestId: seen.requestId }))
  await rejectsWith(t, client.getPet(404), () =>
    ({ status: 404, code: 'not_found', message: 'Pet 404 not found', requestId: seen.requestId }))
  await rejectsWith(t, client.cancelOrder(7), () =>
    ({ status: 404, code: 'not_found', message: 'Order 7 not found', requestId: seen.requestId }))

  await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' }, { idempotencyKey: 'create-rex' })
  await rejectsWith(t, client.createPet({ name: 'Max', categoryId: 1 }, { idempotencyKey: 'create-rex' }), () => ({
    status: 422,
    code: 'idempotency_key_reused',
    message: 'This Idempotency-Key was used for a different request; use a new key for a new request',
    requestId: seen.requestId
  }))

  const shipped = await client.placeOrder({ petId: 1, complete: true })
  await rejectsWith(t, client.cancelOrder(shipped.id), () => ({
    status: 409, code: 'conflict', message: `Order ${shipped.id} is complete (shipped) and can no longer be cancelled`, requestId: seen.requestId
  }))
})

t.test('401 unauthorized for a key the service does not know', async (t) => {
  const { baseUrl } = await listening(t)
  const { seen, fetch } = watching()
  const client = clientOf(baseUrl, { fetch, apiKey: 'not-the-key' })
  await rejectsWith(t, client.listPetsPage(), () =>
    ({ status: 401, code: 'unauthorized', message: 'Invalid API key', requestId: seen.requestId }))
})

t.test('401 for an expired key, 403 insufficient_scope for a key without the operation\'s scope, and nothing made', async (t) => {
  const { app, baseUrl } = await listening(t, { keySyncIntervalMs: 60_000 })
  const { createApiKey } = await import('../../src/features/api-keys/repository.ts')
  const reader = await createApiKey(app.db, { name: 'reader', scopes: ['pets:read'] })
  const expired = await createApiKey(app.db, { name: 'expired', scopes: ['pets:read'], expiresAt: new Date(Date.now() - 1000) })
  await app.apiKeys.sync(app)
  const { seen, fetch } = watching()
  const client = clientOf(baseUrl, { fetch, apiKey: reader.key })
  t.same(await client.listPetsPage().then((page) => page.items), [], 'the key may read')
  await rejectsWith(t, client.createPet({ name: 'Rex', categoryId: 1 }), () =>
    ({ status: 403, code: 'insufficient_scope', message: 'This API key lacks the scope pets:write, which createPet needs', requestId: seen.requestId }))
  t.equal(await rowCount(app, 'pets'), 0)
  await rejectsWith(t, clientOf(baseUrl, { fetch, apiKey: expired.key }).listPetsPage(), () =>
    ({ status: 401, code: 'unauthorized', message: 'The API key has expired', requestId: seen.requestId }))
})

t.test('410 gone: getPet after its sunset', async (t) => {
  const { baseUrl } = await listening(t, { now: () => new Date('2030-12-05T00:00:00Z') })
  const { seen, fetch } = watching()
  await rejectsWith(t, clientOf(baseUrl, { fetch }).getPet(1), () => ({
    status: 410, code: 'gone', message: 'GET /v1/pets/{petId} was removed on 2030-12-05; use GET /v1/pets', requestId: seen.requestId
  }))
})

t.test('413 payload_too_large, and nothing stored', async (t) => {
  const { app, baseUrl } = await listening(t, { bodyLimit: 100 })
  const { seen, fetch } = watching()
  await rejectsWith(t, clientOf(baseUrl, { fetch }).createPet({ name: 'n'.repeat(150), categoryId: 1 }), () =>
    ({ status: 413, code: 'payload_too_large', message: 'Request body is too large', requestId: seen.requestId }))
  t.equal(await rowCount(app, 'pets'), 0)
})

t.test('500 internal_error carries the request id its message quotes', async (t) => {
  const failing = { ...handlers, listPets: async () => { throw new Error('a bug') } }
  const { baseUrl } = await listening(t, { handlers: failing })
  const { seen, fetch } = watching()
  await rejectsWith(t, clientOf(baseUrl, { fetch }).listPetsPage(), () => ({
    status: 500, code: 'internal_error', message: `Internal server error (request id ${seen.requestId})`, requestId: seen.requestId
  }))
})

t.test('429 rate_limited: each retry waits the answer\'s Retry-After; the last refusal is thrown', async (t) => {
  const { baseUrl } = await listening(t, { rateLimit: { perKey: 2 } })
  const { seen, fetch } = watching()
  const waits: number[] = []
  const client = clientOf(baseUrl, { fetch, retry: { retries: 2, sleep: async (ms) => { waits.push(ms) } } })
  await client.listPetsPage()
  await client.listPetsPage()
  seen.retryAfter.length = 0
  await rejectsWith(t, client.listPetsPage(), () => {
    const seconds = Number(seen.retryAfter.at(-1))
    return {
      status: 429,
      code: 'rate_limited',
      message: `Rate limit of 2 requests per 60 s for this key exceeded; retry in ${seconds} s`,
      requestId: seen.requestId,
      retryAfter: seconds
    }
  })
  t.equal(seen.retryAfter.length, 3, 'sent three times: once, then two retries')
  t.strictSame(waits, seen.retryAfter.slice(0, 2).map((seconds) => Number(seconds) * 1000), 'each wait is the Retry-After it followed')
})

t.test('503 unavailable: retried after its Retry-After, then thrown', async (t) => {
  // Any heap is "too full" at one byte: the service refuses every request from its first sample.
  const { app, baseUrl } = await listening(t, { pressure: { maxHeapUsedBytes: 1, sampleIntervalMs: 50 } })
  await until(async () => (await app.inject({ url: '/v1/pets', headers: AUTH })).statusCode === 503, 'the first sample to see the pressure')
  const { seen, fetch } = watching()
  const waits: number[] = []
  const client = clientOf(baseUrl, { fetch, retry: { retries: 1, sleep: async (ms) => { waits.push(ms) } } })
  await rejectsWith(t, client.createPet({ name: 'Rex', categoryId: 1 }), () => ({
    status: 503,
    code: 'unavailable',
    message: 'The service is overloaded; retry after the Retry-After delay',
    requestId: seen.requestId,
    retryAfter: 5
  }))
  t.strictSame(waits, [5000])
  t.equal(await rowCount(app, 'pets'), 0)
})

t.test('an answer without the Error body (a proxy in front) is unexpected_response', async (t) => {
  const proxy = async () => new Response('<h1>Bad Gateway</h1>', { status: 502, headers: { 'content-type': 'text/html', 'x-request-id': 'proxy-1' } })
  const client = clientOf('http://127.0.0.1:9/v1', { fetch: proxy })
  await rejectsWith(t, client.listPetsPage(), () =>
    ({ status: 502, code: 'unexpected_response', message: 'The service answered HTTP 502 without an Error body', requestId: 'proxy-1' }))
  const empty = async () => new Response(null, { status: 504 })
  await rejectsWith(t, clientOf('http://127.0.0.1:9/v1', { fetch: empty }).cancelOrder(1), () =>
    ({ status: 504, code: 'unexpected_response', message: 'The service answered HTTP 504 without an Error body', requestId: undefined }))
})

t.test('a success whose body is empty or not JSON throws the parser\'s error', async (t) => {
  const garbled = async () => new Response('<html>', { status: 200, headers: { 'content-type': 'text/html' } })
  await t.rejects(clientOf('http://127.0.0.1:9/v1', { fetch: garbled }).listPetsPage(), SyntaxError)
  const empty = async () => new Response('', { status: 200, headers: { 'content-length': '0' } })
  await t.rejects(clientOf('http://127.0.0.1:9/v1', { fetch: empty }).createPet({ name: 'Rex', categoryId: 1 }), SyntaxError)
})
