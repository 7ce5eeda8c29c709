/**
 * The client and the event feed against a real listening service: `events()` reads the
 * feed to its end, or, with `wait`, follows it as events come; `listEventsPage` pages by
 * hand, with a cursor on every page; `getEvent`.
 */
import t from 'tap'
import { clientOf, collect, listening } from './server.ts'
import { until } from '../../test/helpers/until.ts'

t.test('events() reads the feed to its first empty page, each event typed by its type', async (t) => {
  const { baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' })
  await client.placeOrder({ petId: 1 })
  await until(async () => (await collect(client.events())).length === 3, 'the three events in the feed')
  const events = await collect(client.events({ limit: 2 }))
  t.same(events.map((event) => event.type), ['pet.created', 'order.placed', 'pet.updated'], 'across pages of two')
  const [created, placed, updated] = events
  t.strictSame(created!.data, { id: 1, name: 'Rex', categoryId: 1, status: 'available' })
  t.strictSame(placed!.data, { id: 1, petId: 1, quantity: 1, complete: false })
  t.strictSame(updated!.type === 'pet.updated' && updated!.previous, { status: 'available' })
  t.strictSame(await client.getEvent(placed!.id), placed)
  t.same((await collect(client.events({ type: 'order.placed' }))).map((event) => event.id), [placed!.id])
})

t.test('listEventsPage gives a cursor on every page, the last included, to poll on from', async (t) => {
  const { baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  await client.createPet({ name: 'Rex', categoryId: 1 })
  await until(async () => (await client.listEventsPage()).items.length === 1, 'the event in the feed')
  const page = await client.listEventsPage()
  t.equal(page.hasMore, true, 'the feed always links on')
  const empty = await client.listEventsPage({ cursor: page.nextCursor })
  t.same(empty.items, [])
  t.equal(empty.nextCursor, page.nextCursor, 'an empty page hands back the same cursor')
  await client.createPet({ name: 'Tom', categoryId: 1 })
  await until(async () => (await client.listEventsPage({ cursor: page.nextCursor })).items.length === 1, 'the new event after the cursor')
  const later = await client.listEventsPage({ cursor: page.nextCursor })
  t.same(later.items.map((event) => event.data.id), [2])
})

t.test('with wait, events() follows the feed as events come, until the caller stops', async (t) => {
  const { baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  const seen: string[] = []
  const following = (async () => {
    for await (const event of client.events({ wait: 30 })) {
      seen.push(`${event.type} ${String(event.data.id)}`)
      if (seen.length === 2) break
    }
  })()
  await client.createPet({ name: 'Rex', categoryId: 1 })
  await until(() => seen.length === 1, 'the first event')
  await client.createPet({ name: 'Tom', categoryId: 1 })
  await following
  t.same(seen, ['pet.created 1', 'pet.created 2'])
})
