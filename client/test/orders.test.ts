/**
 * The client's order operations against a real listening service: place, list (iterated
 * and by hand), cancel, with int64 pet ids exact.
 */
import t from 'tap'
import { sql } from 'kysely'
import { clientOf, collect, listening } from './server.ts'
import { rowCount } from '../../test/helpers/store.ts'

t.test('placeOrder answers the order, defaults applied; shipDate comes back as sent', async (t) => {
  const { baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  await client.createPet({ name: 'Rex', categoryId: 1 })
  t.strictSame(await client.placeOrder({ petId: 1 }), { id: 1, petId: 1, quantity: 1, complete: false })
  t.strictSame(await client.placeOrder({ petId: 1, quantity: 3, shipDate: '2026-12-01T10:00:00.123+02:00', complete: true }),
    { id: 2, petId: 1, quantity: 3, complete: true, shipDate: '2026-12-01T10:00:00.123+02:00' })
})

t.test('listOrders pages through every order; cancelOrder removes one; listOrdersPage pages by hand', async (t) => {
  const { app, baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  await client.createPet({ name: 'Rex', categoryId: 1 })
  const placed = []
  for (let i = 0; i < 12; i++) placed.push(await client.placeOrder({ petId: 1, quantity: i + 1 }))
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
  await sql`insert into pets (id, name, category_id) values (${9223372036854775807n}, 'Max', 1)`.execute(app.db)
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
