/**
 * Two services as `npm start` runs them, sharing one PostgreSQL database, ordering the same
 * pet at once: exactly one order is placed, every other is a 409, and each instance then
 * shows the pet as the other left it.
 */
import t from 'tap'
import { errorBody, JSON_TYPE } from '../helpers/answers.ts'
import { startServer } from '../helpers/process.ts'
import { createPostgresDatabase, postgresSkipReason } from '../helpers/services.ts'

const KEY = 'two-instances-test-key-not-a-secret'
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
const skip = await postgresSkipReason()

t.test('two instances on one PostgreSQL database sell a pet once', { skip }, async (t) => {
  const env = { DATABASE_URL: await createPostgresDatabase(t), PETSTORE_API_KEYS: KEY, RATE_LIMIT_MAX: '0', LOG_LEVEL: 'warn' }
  // One after the other: the first migrates the database.
  const first = await startServer(t, env, { built: true })
  const second = await startServer(t, env, { built: true })
  const call = (base: string, method: string, path: string, body?: unknown) =>
    fetch(`${base}/v1${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })

  const created = await call(first.base, 'POST', '/pets', { name: 'Rex', categoryId: 1, status: 'available' })
  t.equal(created.status, 201)
  const { id } = await created.json() as { id: number }

  const orders = await Promise.all(Array.from({ length: 20 }, (_, i) =>
    call(i % 2 === 0 ? first.base : second.base, 'POST', '/store/orders', { petId: id })))
  const statuses = orders.map((order) => order.status)
  t.equal(statuses.filter((status) => status === 201).length, 1, 'exactly one order is placed')
  t.equal(statuses.filter((status) => status === 409).length, 19, 'every other one is refused')
  for (const refused of orders.filter((order) => order.status === 409)) {
    t.equal(refused.headers.get('content-type'), JSON_TYPE)
    t.same(await refused.json(), errorBody('conflict', `Pet ${id} is not available (its status is pending)`, 409))
  }
  const placed = await orders.find((order) => order.status === 201)!.json() as { id: number }

  for (const base of [first.base, second.base]) {
    const pending = await call(base, 'GET', '/pets?status=pending')
    t.same(await pending.json(), [{ id, name: 'Rex', categoryId: 1, status: 'pending' }], `${base} lists it pending`)
  }
  const held = await fetch(`${second.base}/v1/pets/${id}`, { method: 'PATCH', headers: { ...headers, 'content-type': 'application/merge-patch+json' }, body: '{"status":"available"}' })
  t.equal(held.status, 409)
  t.same(await held.json(), errorBody('conflict', `Pet ${id} is held by open order ${placed.id}; its status cannot change until the order is completed or cancelled`, 409))

  const completed = await call(second.base, 'PATCH', `/store/orders/${placed.id}`, { complete: true })
  t.equal(completed.status, 200)
  const sold = await call(first.base, 'GET', `/pets/${id}`)
  t.same(await sold.json(), { id, name: 'Rex', categoryId: 1, status: 'sold' }, 'the other instance shows it sold at once')
})
