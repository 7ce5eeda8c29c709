/**
 * Safe retries with Idempotency-Key, on whichever database this run tests: a retry gets
 * the first answer and creates nothing; another request with the key is 422; concurrent
 * ones make one record; failures are not kept; API keys never share keys.
 */
import type { FastifyInstance } from 'fastify'
import t from 'tap'
import { deleteExpiredAnswers } from '../../../src/features/idempotency/repository.ts'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { errorBody } from '../../helpers/answers.ts'
import { rowCount } from '../../helpers/store.ts'
import { parseNetworks } from '../../../src/config/values.ts'
import { newSecretsKey, sealSecret } from '../../../src/features/webhooks/sealing.ts'

const OTHER_KEY = 'second-test-key-not-a-secret-00'

const post = (app: FastifyInstance, url: string, key: string, payload: string, headers: Record<string, string> = JSON_HEADERS) =>
  app.inject({ method: 'POST', url, headers: { ...headers, 'idempotency-key': key }, payload })

t.test('a retry gets the first answer again, byte for byte, and creates nothing', async (t) => {
  const app = await build(t)
  const first = await post(app, '/v1/pets', 'retry-1', '{"name":"Rex","categoryId":9007199254740993,"status":"sold"}')
  t.equal(first.statusCode, 201)
  t.equal(first.headers['idempotent-replayed'], undefined)
  t.equal(first.body, '{"id":1,"name":"Rex","categoryId":9007199254740993,"status":"sold"}')
  // The same JSON value: other key order and spacing.
  const retry = await post(app, '/v1/pets', 'retry-1', '{ "status": "sold", "categoryId": 9007199254740993, "name": "Rex" }')
  t.equal(retry.statusCode, 201)
  t.equal(retry.headers['idempotent-replayed'], 'true')
  t.equal(retry.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(retry.headers['cache-control'], 'no-store')
  t.equal(retry.body, first.body)
  t.equal(await rowCount(app, 'pets'), 1)

  await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Tom', categoryId: 1, status: 'available' } })
  const order = await post(app, '/v1/store/orders', 'order-1', '{"petId":2}')
  t.equal(order.statusCode, 201)
  const orderRetry = await post(app, '/v1/store/orders', 'order-1', '{"petId":2,"quantity":1,"complete":false}')
  t.equal(orderRetry.headers['idempotent-replayed'], 'true', 'fields given as their defaults are the same request')
  t.equal(orderRetry.body, order.body)
  t.equal(await rowCount(app, 'orders'), 1)
})

t.test('the same key with another request is 422, and creates nothing', async (t) => {
  const app = await build(t)
  await post(app, '/v1/pets', 'reused-1', '{"name":"Rex","categoryId":1}')
  const cases = [
    ['/v1/pets', '{"name":"Tom","categoryId":1}'],
    ['/v1/store/orders', '{"petId":1}']
  ]
  for (const [url, payload] of cases) {
    const res = await post(app, url!, 'reused-1', payload!)
    t.equal(res.statusCode, 422, url)
    t.equal(res.headers['cache-control'], 'no-store')
    t.same(res.json(), errorBody('idempotency_key_reused', 'This Idempotency-Key was used for a different request; use a new key for a new request', 422))
  }
  t.equal(await rowCount(app, 'pets'), 1)
  t.equal(await rowCount(app, 'orders'), 0)
})

t.test('two API keys using the same idempotency key never collide', async (t) => {
  const app = await build(t, { apiKeys: ['test-key-not-a-real-secret-0000', OTHER_KEY] })
  const mine = await post(app, '/v1/pets', 'shared', '{"name":"Rex","categoryId":1}')
  const theirs = await post(app, '/v1/pets', 'shared', '{"name":"Tom","categoryId":1}', { authorization: `Bearer ${OTHER_KEY}`, 'content-type': 'application/json' })
  t.equal(mine.json().id, 1)
  t.equal(theirs.statusCode, 201)
  t.equal(theirs.json().id, 2)
  t.equal(theirs.headers['idempotent-replayed'], undefined)
})

t.test('30 concurrent requests with one key make exactly one record', async (t) => {
  const app = await build(t)
  const responses = await Promise.all(Array.from({ length: 30 }, () => post(app, '/v1/pets', 'burst', '{"name":"Rex","categoryId":1}')))
  const created = responses.filter((res) => res.statusCode === 201)
  const busy = responses.filter((res) => res.statusCode === 409)
  t.equal(created.length + busy.length, 30, 'each is a 201 (first or replayed) or a 409')
  t.same(new Set(created.map((res) => res.json().id)), new Set([1]), 'no second id')
  for (const res of busy) t.same(res.json(), errorBody('idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry after it finishes', 409))
  t.equal(await rowCount(app, 'pets'), 1)
  const after = await post(app, '/v1/pets', 'burst', '{"name":"Rex","categoryId":1}')
  t.equal(after.headers['idempotent-replayed'], 'true', 'once it is done, a retry replays')
})

t.test('a request that fails is not kept: corrected, it goes through with the same key', async (t) => {
  const app = await build(t)
  const invalid = await post(app, '/v1/pets', 'fix-me', '{"name":"Rex"}')
  t.equal(invalid.statusCode, 400)
  const noPet = await post(app, '/v1/store/orders', 'fix-order', '{"petId":7}')
  t.equal(noPet.statusCode, 400)
  t.equal(await rowCount(app, 'idempotency_keys'), 0)
  t.equal((await post(app, '/v1/pets', 'fix-me', '{"name":"Rex","categoryId":1,"status":"available"}')).statusCode, 201)
  t.equal((await post(app, '/v1/store/orders', 'fix-order', '{"petId":1}')).statusCode, 201)
  t.equal(await rowCount(app, 'idempotency_keys'), 2)
})

t.test('a malformed key is a 400 naming the header', async (t) => {
  const app = await build(t)
  for (const key of ['', 'x'.repeat(256), 'with space', 'tab\tkey', 'café']) {
    const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: { ...JSON_HEADERS, 'idempotency-key': key }, payload: '{"name":"Rex","categoryId":1}' })
    t.equal(res.statusCode, 400, JSON.stringify(key))
    t.same(res.json(), errorBody('invalid_request', 'headers/idempotency-key must be 1 to 255 visible ASCII characters', 400))
  }
  t.equal(await rowCount(app, 'pets'), 0)
  t.equal((await post(app, '/v1/pets', 'x'.repeat(255), '{"name":"Rex","categoryId":1}')).statusCode, 201, '255 characters are fine')
})

t.test('an expired answer is forgotten, and expired answers are deleted', async (t) => {
  const app = await build(t)
  await post(app, '/v1/pets', 'old', '{"name":"Rex","categoryId":1}')
  await post(app, '/v1/pets', 'recent', '{"name":"Tom","categoryId":1}')
  await app.db.updateTable('idempotency_keys').set({ expires_at: Date.now() - 1 }).where('idempotency_key', '=', 'old').execute()
  const reused = await post(app, '/v1/pets', 'old', '{"name":"Other","categoryId":1}')
  t.equal(reused.statusCode, 201, 'after 24 hours the key is free again')
  t.equal(reused.json().id, 3)
  await app.db.updateTable('idempotency_keys').set({ expires_at: Date.now() - 1 }).where('idempotency_key', '=', 'old').execute()
  t.equal(await deleteExpiredAnswers(app.db, Date.now()), 1)
  t.same((await app.db.selectFrom('idempotency_keys').select('idempotency_key').execute()).map((row) => row.idempotency_key), ['recent'])
})

t.test('without a key, a create is an ordinary create', async (t) => {
  const app = await build(t)
  for (let i = 0; i < 2; i++) await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: '{"name":"Rex","categoryId":1}' })
  t.equal(await rowCount(app, 'pets'), 2)
  t.equal(await rowCount(app, 'idempotency_keys'), 0)
  t.equal((await app.inject({ url: '/v1/pets', headers: AUTH })).json().length, 2)
})

t.test('a key is bound to the path too: another endpoint\'s rotation or recovery is 422, never a replay', async (t) => {
  const app = await build(t, { webhooks: { allowedNetworks: parseNetworks('127.0.0.0/8') } })
  for (let i = 0; i < 2; i++) {
    const res = await app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: JSON_HEADERS, payload: { url: `http://127.0.0.1:9/${i}`, events: ['*'] } })
    t.equal(res.statusCode, 201)
  }
  const sealed = async (id: number) => (await app.db.selectFrom('webhook_endpoints').select('secret').where('id', '=', id).executeTakeFirstOrThrow()).secret
  const second = await sealed(2)
  const rotated = await post(app, '/v1/webhook-endpoints/1/rotate-secret', 'rotate', '{"graceSeconds":0}')
  t.equal(rotated.statusCode, 200)
  const replayed = await post(app, '/v1/webhook-endpoints/1/rotate-secret', 'rotate', '{"graceSeconds":0}')
  t.equal(replayed.headers['idempotent-replayed'], 'true', 'the same path and body replay')
  t.equal(replayed.body, rotated.body)
  const reusedError = errorBody('idempotency_key_reused', 'This Idempotency-Key was used for a different request; use a new key for a new request', 422)
  for (const url of ['/v1/webhook-endpoints/2/rotate-secret', '/v1/webhook-endpoints/999999/rotate-secret']) {
    const res = await post(app, url, 'rotate', '{"graceSeconds":0}')
    t.equal(res.statusCode, 422, url)
    t.equal(res.headers['idempotent-replayed'], undefined)
    t.equal(res.headers['cache-control'], 'no-store')
    t.same(res.json(), reusedError)
  }
  t.equal(await sealed(2), second, 'endpoint 2 keeps its secret')

  const since = '{"since":"2026-01-01T00:00:00Z"}'
  t.equal((await post(app, '/v1/webhook-endpoints/1/recover', 'recover', since)).statusCode, 202)
  const other = await post(app, '/v1/webhook-endpoints/2/recover', 'recover', since)
  t.equal(other.statusCode, 422)
  t.same(other.json(), reusedError)
})

t.test('a kept answer holding a secret the key no longer opens is a 409, never a second endpoint', async (t) => {
  const app = await build(t, { webhooks: { allowedNetworks: parseNetworks('127.0.0.0/8') } })
  const body = '{"url":"http://127.0.0.1:9/hooks","events":["*"]}'
  t.equal((await post(app, '/v1/webhook-endpoints', 'endpoint', body)).statusCode, 201)
  // As if sealed under the key the service had before its key was replaced.
  await app.db.updateTable('idempotency_keys').set({ response_body: sealSecret(newSecretsKey().key, '{}') }).execute()
  const replay = await post(app, '/v1/webhook-endpoints', 'endpoint', body)
  t.equal(replay.statusCode, 409)
  t.equal(replay.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(replay.headers['idempotent-replayed'], undefined)
  t.same(replay.json(), errorBody('conflict', 'The request with this Idempotency-Key was completed, but its answer held a webhook secret that can no longer be read ' +
    '(the key for webhook secrets was replaced since): list the webhook endpoints to find it, and rotate its secret for a new one', 409))
  t.equal(await rowCount(app, 'webhook_endpoints'), 1)
})
