/**
 * The client's category operations against a real listening service: create (and its 409),
 * get, update, list (iterated and by hand), delete, and the pets of one category, with
 * int64 ids exact.
 */
import t from 'tap'
import { clientOf, collect, listening } from './server.ts'

t.test('a shop names Dogs, Cats and Birds, renames one, lists the available dogs and removes a category', async (t) => {
  const { baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  const dogs = await client.createCategory({ name: 'Dogs', description: 'Every dog of the store' })
  t.strictSame(dogs, { id: 1, name: 'Dogs', description: 'Every dog of the store' })
  t.strictSame(await client.createCategory({ name: 'Cats' }), { id: 2, name: 'Cats' })
  const birds = await client.createCategory({ name: 'Birds' })
  await t.rejects(client.createCategory({ name: 'DOGS' }), {
    name: 'PetstoreError', status: 409, code: 'conflict', message: 'Category 1 is named "DOGS" already; category names are unique, whatever their case'
  })
  t.strictSame(await client.updateCategory(dogs.id, { name: 'Hounds', description: null }), { id: 1, name: 'Hounds' })
  t.strictSame(await client.getCategory(dogs.id), { id: 1, name: 'Hounds' })

  t.strictSame(await collect(client.listCategories({ limit: 2 })), [{ id: 1, name: 'Hounds' }, { id: 2, name: 'Cats' }, { id: 3, name: 'Birds' }])
  const first = await client.listCategoriesPage({ limit: 2 })
  t.strictSame(first.items.map((category) => category.id), [1, 2])
  t.equal(first.hasMore, true)
  const rest = await client.listCategoriesPage({ limit: 2, cursor: first.nextCursor })
  t.strictSame(rest.items.map((category) => category.id), [3])
  t.equal(rest.nextCursor, undefined)

  const statuses = ['available', 'sold', 'available', 'pending', 'available'] as const
  for (const [i, status] of statuses.entries()) await client.createPet({ name: `Dog ${i}`, categoryId: dogs.id, status })
  await client.createPet({ name: 'Tweety', categoryId: birds.id, status: 'available' })
  const available = await collect(client.listPets({ categoryId: dogs.id, status: 'available', limit: 2 }))
  t.strictSame(available.map((pet) => pet.name), ['Dog 0', 'Dog 2', 'Dog 4'], 'the available dogs, a page at a time')

  t.equal(await client.deleteCategory(birds.id), undefined, 'resolves with nothing on 204')
  await t.rejects(client.getCategory(birds.id), { name: 'PetstoreError', status: 404, code: 'not_found', message: 'Category 3 not found' })
  t.strictSame(await collect(client.listPets({ categoryId: birds.id })), [{ id: 6, name: 'Tweety', categoryId: 3, status: 'available' }], 'its pet keeps its categoryId')
})

t.test('a categoryId past 2^53 is sent and matched digit for digit', async (t) => {
  const { baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  await client.createPet({ name: 'Big', categoryId: 9007199254740993n })
  await client.createPet({ name: 'Near', categoryId: 9007199254740992n })
  t.strictSame(await collect(client.listPets({ categoryId: 9007199254740993n })), [{ id: 1, name: 'Big', categoryId: 9007199254740993n }])
})
