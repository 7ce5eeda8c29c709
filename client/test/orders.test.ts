/**
 * The client's order operations against a real listening service: place, get, update, list
 * (iterated and by hand), cancel, with int64 pet ids exact.
 */
import t from 'tap'
import { sql } from 'kysely'
import { clientOf, collect, listening } from './server.ts'
import { rowCount } from '../../test/helpers/store.ts'

t.test('placeOrder answers the order, defaults applied; shipDate comes back as sent', async (t) => {
  const { baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' })
  await client.createPet({ name: 'Tom', categoryId: 1, status: 'available' })
  t.strictSame(await client.placeOrder({ petId: 1 }), { id: 1, petId: 1, quantity: 1, complete: false })
  t.strictSame(await client.placeOrder({ petId: 2, quantity: 3, shipDate: '2026-12-01T10:00:00.123+02:00', complete: true }),
    { id: 2, petId: 2, quantity: 3, complete: true, shipDate: '2026-12-01T10:00:00.123+02:00' })
})

t.test('getOrder and updateOrder: an order read, then completed, selling its pet; a pet on order is a 409', async (t) => {
  const { baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' })
  const order = await client.placeOrder({ petId: 1 })
  t.strictSame(await client.getOrder(order.id), { id: 1, petId: 1, quantity: 1, complete: false })
  await t.rejects(client.placeOrder({ petId: 1 }), { name: 'PetstoreError', status: 409, code: 'conflict', message: 'Pet 1 is not available (its status is pending)' })
  t.strictSame(await client.updateOrder(order.id, { shipDate: '2026-12-01T10:00:00Z', complete: true }),
    { id: 1, petId: 1, quantity: 1, complete: true, shipDate: '2026-12-01T10:00:00Z' })
  t.strictSame(await client.updateOrder(order.id, { shipDate: null }), { id: 1, petId: 1, quantity: 1, complete: true })
  t.strictSame(await client.getPet(1), { id: 1, name: 'Rex', categoryId: 1, status: 'sold' })
  await t.rejects(client.updateOrder(order.id, { complete: false }), { name: 'PetstoreError', status: 409, code: 'conflict', message: 'Order 1 is complete (shipped) and cannot be made incomplete again' })
  await t.rejects(client.getOrder(7), { name: 'PetstoreError', status: 404, code: 'not_found', message: 'Order 7 not found' })
})

t.test('listOrders pages through every order; cancelOrder removes one; listOrdersPage pages by hand', async (t) => {
  const { app, baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  const placed = []
  for (let i = 0; i < 12; i++) {
    // A pet is one animal: one order each.
    const pet = await client.createPet({ name: `Rex ${i}`, categoryId: 1, status: 'available' })
    placed.push(await client.placeOrder({ petId: pet.id, quantity: i + 1 }))
  }
  t.strictSame(await collect(client.listOrders({ limit: 5 })), placed)

  t.equal(await client.cancelOrder(placed[4]!.id), undefined, 'resolves with nothing on 204')
  t.equal(await rowCount(app, 'orders'), 11)
  const left = placed.filter((_order, i) => i !== 4)
  const first = await client.listOrdersPage({ limit: 10 })
  t.strictSame(first.items, left.slice(0, 10))
  t.equal(first.hasMore, true)
  t.strictSame(await client.listOrdersPage({ limit: 10, cursor: first.nextCursor }), { items: left.slice(10), nextCursor: undefined, hasMore: false })
  t.strictSame((await client.listOrdersPage()).items, left, 'the default page size is 20')
})

t.test('orders keep ids and pet ids past 2^53 exact; a bigint order id cancels', async (t) => {
  const { baseUrl, app } = await listening(t)
  const client = clientOf(baseUrl)
  await sql`insert into pets (id, name, category_id, status) values (${9223372036854775807n}, 'Max', 1, 'available')`.execute(app.db)
  await sql`insert into orders (id, pet_id, quantity, complete) values (${9007199254740993n}, ${9223372036854775807n}, 1, 0)`.execute(app.db)
  const order = await client.placeOrder({ petId: 9223372036854775807n })
  t.strictSame(order, { id: 9007199254740994n, petId: 9223372036854775807n, quantity: 1, complete: false })
  t.strictSame(await collect(client.listOrders({ limit: 1 })), [
    { id: 9007199254740993n, petId: 9223372036854775807n, quantity: 1, complete: false },
    order
  ])
  await client.cancelOrder(9007199254740993n)
  t.strictSame(await collect(client.listOrders()), [order])
})
