/**
 * Prometheus metrics: what they count and how they are labelled, that nothing a client
 * wrote reaches a label, and that they stay off the API port.
 */
import type { InjectOptions } from 'fastify'
import t from 'tap'
import { AUTH, build, JSON_HEADERS, TEST_DATABASE, TEST_KEY } from '../../helpers/app.ts'
import { acceptedPath, unservedMethods } from '../../helpers/methods.ts'
import { apiDocument } from '../../../src/contract/document.ts'

t.test('metrics count requests by operation, rate-limit refusals and queries; labels hold nothing a client wrote', async (t) => {
  const app = await build(t, { metrics: true, rateLimit: { perKey: 100, anonymous: 1 } })
  await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1 } })
  await app.inject({ url: '/v1/pets?limit=5', headers: AUTH })
  await app.inject({ url: '/v1/pets?api_key=secret-in-the-query', headers: AUTH })
  await app.inject({ url: '/v1/pets/1', headers: AUTH })
  await app.inject({ url: '/v1/pets/999', headers: AUTH })
  await app.inject({ url: '/v1/pets', headers: { authorization: 'Bearer wrong-key' } })
  await app.inject({ url: '/v1/pets', headers: { authorization: 'Bearer wrong-key' } })
  const text = await app.prometheus!.registry.metrics()

  const count = (labels: string) => Number(new RegExp(`^http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0)
  t.equal(count('method="POST",operation="createPet",status_class="2xx"'), 1)
  t.equal(count('method="GET",operation="listPets",status_class="2xx"'), 1)
  t.equal(count('method="GET",operation="getPet",status_class="2xx"'), 1)
  t.equal(count('method="GET",operation="getPet",status_class="4xx"'), 1)
  t.equal(count('method="GET",operation="listPets",status_class="4xx"'), 3, 'the 400, the 401 and the 429')
  t.match(text, /^rate_limit_refusals_total\{limit="address"\} 1$/m)
  t.match(text, /^db_query_duration_seconds_count\{outcome="ok"\} [1-9]\d*$/m)
  t.match(text, /^process_resident_memory_bytes \d+/m)
  t.match(text, /^nodejs_heap_size_used_bytes \d+/m)
  if (TEST_DATABASE === 'postgres') t.match(text, /^db_pool_connections\{state="total"\} \d+$/m)
  for (const leak of ['secret-in-the-query', 'wrong-key', TEST_KEY, 'limit=5', '/v1/pets/999', '127.0.0.1']) {
    t.notMatch(text, leak, `no ${leak} in any label`)
  }
})

t.test('404s and 405s count too: a 405 by its path template, a 404 as none, whatever the method', async (t) => {
  const app = await build(t, { metrics: true })
  await app.inject({ url: '/v1/no-such-thing/secret-path', headers: AUTH })
  await app.inject({ url: '/v1/pets/', headers: AUTH })
  // A method the document does not serve on the pet's path, whatever it serves there.
  const unserved = unservedMethods('/pets/:petId').find((method) => method !== 'OPTIONS')!
  await app.inject({ method: unserved, url: '/v1/pets/7', headers: AUTH })
  await app.inject({ method: 'OPTIONS', url: '/v1/pets', headers: AUTH })
  await app.inject({ method: 'HEAD', url: '/v1/pets', headers: AUTH })
  const text = await app.prometheus!.registry.metrics()
  const count = (labels: string) => Number(new RegExp(`^http_request_duration_seconds_count\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0)
  t.equal(count('method="GET",operation="none",status_class="4xx"'), 1, 'the unknown path')
  t.equal(count('method="GET",operation="getPet",status_class="4xx"'), 1, 'the empty id: the route it matched')
  t.equal(count(`method="${unserved}",operation="/v1/pets/:petId",status_class="4xx"`), 1)
  t.equal(count('method="OPTIONS",operation="/v1/pets",status_class="4xx"'), 1)
  t.equal(count('method="HEAD",operation="listPets",status_class="2xx"'), 1)
  t.notMatch(text, 'secret-path', 'no raw URL in any label')
})

t.test('every operation the document declares is counted under its own operationId', async (t) => {
  const app = await build(t, { metrics: true })
  const operations = [...apiDocument.operations.values()]
  for (const { method, url } of operations) {
    const body = ['POST', 'PUT', 'PATCH'].includes(method) ? {} : undefined
    await app.inject({ method: method as InjectOptions['method'], url: acceptedPath(url), headers: body === undefined ? AUTH : JSON_HEADERS, payload: body })
  }
  const text = await app.prometheus!.registry.metrics()
  for (const { method, operationId } of operations) {
    t.match(text, new RegExp(`^http_request_duration_seconds_count\\{method="${method}",operation="${operationId}",status_class="[245]xx"\\} 1$`, 'm'), operationId)
  }
})

t.test('without METRICS_PORT nothing is collected, and the API port never serves metrics', async (t) => {
  const off = await build(t)
  t.equal(off.prometheus, undefined)
  const on = await build(t, { metrics: true })
  for (const app of [off, on]) {
    const res = await app.inject({ url: '/metrics' })
    t.equal(res.statusCode, 404)
  }
})
