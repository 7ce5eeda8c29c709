/**
 * Orders move their pet (docs/decisions.md#pet-lifecycle), on whichever database this run tests:
 * placing reserves an `available` pet, completing sells it, cancelling puts it back on sale,
 * every read and ETag shows the change at once, and a pet is never sold twice.
 */
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { errorBody, JSON_TYPE, orderBody, petBody } from '../../helpers/answers.ts'
import { addPets, rowCount } from '../../helpers/store.ts'

const ORDERS = '/v1/store/orders'
const MERGE_PATCH = { ...AUTH, 'content-type': 'application/merge-patch+json' }

async function petStatus (app: FastifyInstance, id: number): Promise<string | undefined> {
  const res = await app.inject({ url: `/v1/pets/${id}`, headers: AUTH })
  if (res.statusCode !== 200) throw new Error(res.body)
  return res.json().status
}

t.test('placeOrder makes an available pet pending, or sold for a complete order', async (t) => {
  const app = await build(t)
  await addPets(app, 2, { statuses: ['available'] })
  const open = await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: 1 } })
  t.equal(open.statusCode, 201)
  t.equal(open.body, orderBody({ id: 1, petId: 1, quantity: 1, complete: false }))
  t.equal(await petStatus(app, 1), 'pending')
  const complete = await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: 2, complete: true } })
  t.equal(complete.statusCode, 201)
  t.equal(complete.body, orderBody({ id: 2, petId: 2, quantity: 1, complete: true }))
  t.equal(await petStatus(app, 2), 'sold')
})

t.test('placeOrder refuses a pet that is not available with 409, and writes nothing', async (t) => {
  const app = await build(t)
  await addPets(app, 3, { statuses: ['pending', 'sold', undefined] })
  const cases: Array<[number, string]> = [
    [1, 'Pet 1 is not available (its status is pending)'],
    [2, 'Pet 2 is not available (its status is sold)'],
    [3, 'Pet 3 is not available (it has no status)']
  ]
  for (const [petId, message] of cases) {
    for (const complete of [false, true]) {
      const res = await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId, complete } })
      t.equal(res.statusCode, 409, message)
      t.equal(res.headers['content-type'], JSON_TYPE)
      t.equal(res.headers['api-stability'], 'experimental')
      t.equal(res.headers['cache-control'], 'no-store')
      t.same(res.json(), errorBody('conflict', message, 409))
    }
  }
  t.equal(await rowCount(app, 'orders'), 0, 'no order was written')
  t.same([await petStatus(app, 1), await petStatus(app, 2), await petStatus(app, 3)], ['pending', 'sold', undefined], 'no pet changed')
})

t.test('a second order for the same pet is a 409 until the first is cancelled', async (t) => {
  const app = await build(t)
  await addPets(app, 1, { statuses: ['available'] })
  const first = await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: 1 } })
  t.equal(first.statusCode, 201)
  const second = await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: 1, quantity: 2 } })
  t.equal(second.statusCode, 409)
  t.same(second.json(), errorBody('conflict', 'Pet 1 is not available (its status is pending)', 409))

  const cancelled = await app.inject({ method: 'DELETE', url: `${ORDERS}/1`, headers: AUTH })
  t.equal(cancelled.statusCode, 204)
  t.equal(await petStatus(app, 1), 'available', 'cancelling an open order puts its pet back on sale')
  const again = await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: 1, quantity: 2 } })
  t.equal(again.statusCode, 201)
  t.equal(again.body, orderBody({ id: 2, petId: 1, quantity: 2, complete: false }))
})

t.test('a complete order cannot be cancelled, and its pet stays sold', async (t) => {
  const app = await build(t)
  await addPets(app, 1, { statuses: ['available'] })
  await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: 1, complete: true } })
  const res = await app.inject({ method: 'DELETE', url: `${ORDERS}/1`, headers: AUTH })
  t.equal(res.statusCode, 409)
  t.same(res.json(), errorBody('conflict', 'Order 1 is complete (shipped) and can no longer be cancelled', 409))
  t.equal(await petStatus(app, 1), 'sold')
})

t.test('completing an order sells its pet; cancelling an open one frees it', async (t) => {
  const app = await build(t)
  await addPets(app, 2, { statuses: ['available'] })
  await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: 1 } })
  await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: 2 } })
  const completed = await app.inject({ method: 'PATCH', url: `${ORDERS}/1`, headers: MERGE_PATCH, payload: { complete: true } })
  t.equal(completed.statusCode, 200)
  t.equal(completed.body, orderBody({ id: 1, petId: 1, quantity: 1, complete: true }))
  t.equal(await petStatus(app, 1), 'sold')
  t.equal((await app.inject({ method: 'DELETE', url: `${ORDERS}/2`, headers: AUTH })).statusCode, 204)
  t.equal(await petStatus(app, 2), 'available')
})

t.test('a replayed placeOrder answers as the first time, without checking the pet again', async (t) => {
  const app = await build(t)
  await addPets(app, 1, { statuses: ['available'] })
  const headers = { ...JSON_HEADERS, 'idempotency-key': 'order-pet-1' }
  const first = await app.inject({ method: 'POST', url: ORDERS, headers, payload: { petId: 1 } })
  t.equal(first.statusCode, 201)
  t.equal(await petStatus(app, 1), 'pending')
  const replay = await app.inject({ method: 'POST', url: ORDERS, headers, payload: { petId: 1 } })
  t.equal(replay.statusCode, 201, 'the pet is pending now, yet the retry gets the first answer')
  t.equal(replay.headers['idempotent-replayed'], 'true')
  t.equal(replay.body, first.body)
  t.equal(await rowCount(app, 'orders'), 1)

  const refused = await app.inject({ method: 'POST', url: ORDERS, headers: { ...JSON_HEADERS, 'idempotency-key': 'order-pet-1-again' }, payload: { petId: 1 } })
  t.equal(refused.statusCode, 409)
  t.same(refused.json(), errorBody('conflict', 'Pet 1 is not available (its status is pending)', 409))
  const retried = await app.inject({ method: 'POST', url: ORDERS, headers: { ...JSON_HEADERS, 'idempotency-key': 'order-pet-1-again' }, payload: { petId: 1 } })
  t.equal(retried.statusCode, 409, 'a refused order keeps no answer: its retry is checked again')
  t.equal(retried.headers['idempotent-replayed'], undefined)
})

t.test('every read of the pet, and its ETag, shows each move at once', async (t) => {
  const app = await build(t)
  await addPets(app, 2, { statuses: ['available'] })
  const listed = async (status: string) => (await app.inject({ url: `/v1/pets?status=${status}`, headers: AUTH })).json().map((pet: { id: number }) => pet.id)
  const read = async () => {
    const pet = await app.inject({ url: '/v1/pets/1', headers: AUTH })
    const list = await app.inject({ url: '/v1/pets?status=available', headers: AUTH })
    return { pet, list }
  }
  const before = await read()
  t.equal(before.pet.body, petBody({ id: 1, name: 'pet 1', categoryId: 1, status: 'available' }))
  t.equal((await app.inject({ url: '/v1/pets/1', headers: { ...AUTH, 'if-none-match': before.pet.headers.etag as string } })).statusCode, 304, 'unchanged: 304')

  await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: 1 } })
  const placed = await read()
  t.equal(placed.pet.body, petBody({ id: 1, name: 'pet 1', categoryId: 1, status: 'pending' }))
  t.not(placed.pet.headers.etag, before.pet.headers.etag)
  t.not(placed.list.headers.etag, before.list.headers.etag)
  const revalidated = await app.inject({ url: '/v1/pets/1', headers: { ...AUTH, 'if-none-match': before.pet.headers.etag as string } })
  t.equal(revalidated.statusCode, 200, 'the old ETag no longer matches')
  t.equal(revalidated.body, placed.pet.body)
  t.same(await listed('available'), [2])
  t.same(await listed('pending'), [1])

  await app.inject({ method: 'PATCH', url: `${ORDERS}/1`, headers: MERGE_PATCH, payload: { complete: true } })
  const sold = await app.inject({ url: '/v1/pets/1', headers: { ...AUTH, 'if-none-match': placed.pet.headers.etag as string } })
  t.equal(sold.statusCode, 200)
  t.equal(sold.body, petBody({ id: 1, name: 'pet 1', categoryId: 1, status: 'sold' }))
  t.same(await listed('pending'), [])
  t.same(await listed('sold'), [1])

  await app.inject({ method: 'POST', url: ORDERS, headers: JSON_HEADERS, payload: { petId: 2 } })
  const pending = await app.inject({ url: '/v1/pets/2', headers: AUTH })
  t.equal(pending.body, petBody({ id: 2, name: 'pet 2', categoryId: 1, status: 'pending' }))
  await app.inject({ method: 'DELETE', url: `${ORDERS}/2`, headers: AUTH })
  const freed = await app.inject({ url: '/v1/pets/2', headers: { ...AUTH, 'if-none-match': pending.headers.etag as string } })
  t.equal(freed.statusCode, 200)
  t.equal(freed.body, petBody({ id: 2, name: 'pet 2', categoryId: 1, status: 'available' }))
  t.same(await listed('available'), [2])
})
