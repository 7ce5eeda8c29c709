/**
 * The client's pet operations against a real listening service: whole answers, paging
 * through many pages (iterated and by hand), and int64 values exact both ways.
 */
import t from 'tap'
import { sql } from 'kysely'
import type { PetStatus } from '../src/index.ts'
import { clientOf, collect, listening } from './server.ts'
import { rowCount } from '../../test/helpers/store.ts'

const STATUSES: PetStatus[] = ['available', 'pending', 'sold']

/** A fetch that records the URL of every request it sends. */
function recording () {
  const urls: string[] = []
  const fetch = (request: Request) => { urls.push(request.url); return globalThis.fetch(request) }
  return { urls, fetch }
}

t.test('createPet answers the new pet; getPet reads it back; no status stays absent', async (t) => {
  const { baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  t.same(await collect(client.listPets()), [], 'an empty store lists nothing')
  const rex = await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' })
  t.strictSame(rex, { id: 1, name: 'Rex', categoryId: 1, status: 'available' })
  const tom = await client.createPet({ name: 'Tom', categoryId: 2 })
  t.strictSame(tom, { id: 2, name: 'Tom', categoryId: 2 }, 'no status key, not null')
  t.strictSame(await client.getPet(2), tom)
  t.strictSame(await client.getPet(1n), rex, 'a bigint id is a path parameter too')
})

t.test('listPets follows Link rel="next" through every page, keeping limit and status', async (t) => {
  const { baseUrl } = await listening(t)
  const { urls, fetch } = recording()
  const client = clientOf(baseUrl, { fetch })
  const created = []
  for (let i = 0; i < 45; i++) created.push(await client.createPet({ name: `pet ${i + 1}`, categoryId: 1, status: STATUSES[i % 3]! }))
  urls.length = 0

  t.strictSame(await collect(client.listPets({ limit: 10 })), created, 'all 45, in id order')
  t.equal(urls.length, 5, 'five pages of at most ten')
  t.equal(urls[0], `${baseUrl}/pets?limit=10`)
  t.match(urls[1], new RegExp(`^${baseUrl}/pets\\?limit=10&cursor=[\\w-]+$`), 'the next page keeps limit and adds the cursor')

  urls.length = 0
  const sold = created.filter((pet) => pet.status === 'sold')
  t.strictSame(await collect(client.listPets({ status: 'sold', limit: 4 })), sold, 'only the 15 sold ones, in order')
  t.equal(urls.length, 4)
  for (const url of urls) t.match(url, /[?&]status=sold(&|$)/, 'every page keeps the filter')

  const iterable = client.listPets({ limit: 20 })
  t.equal((await collect(iterable)).length, 45)
  t.equal((await collect(iterable)).length, 45, 'an iterable starts again from the first page each time')
})

t.test('listPetsPage gives one page and the cursor of the next, for callers who page themselves', async (t) => {
  const { baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  const created = []
  for (let i = 0; i < 25; i++) created.push(await client.createPet({ name: `pet ${i + 1}`, categoryId: 3 }))

  const first = await client.listPetsPage({ limit: 10 })
  t.strictSame(first.items, created.slice(0, 10))
  t.equal(first.hasMore, true)
  t.type(first.nextCursor, 'string')
  const second = await client.listPetsPage({ limit: 10, cursor: first.nextCursor })
  t.strictSame(second.items, created.slice(10, 20))
  const last = await client.listPetsPage({ limit: 10, cursor: second.nextCursor })
  t.strictSame(last, { items: created.slice(20), nextCursor: undefined, hasMore: false })
  const byDefault = await client.listPetsPage()
  t.strictSame(byDefault.items, created.slice(0, 20), 'the default page size is 20')
  t.equal(byDefault.hasMore, true)
})

t.test('int64 values beyond 2^53 are bigints, exact both ways; safe ones stay numbers', async (t) => {
  const { app, baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  const above = await client.createPet({ name: 'Above', categoryId: 2n ** 53n + 1n })
  t.strictSame(above, { id: 1, name: 'Above', categoryId: 9007199254740993n })
  const max = await client.createPet({ name: 'Max', categoryId: 9223372036854775807n })
  t.strictSame(max, { id: 2, name: 'Max', categoryId: 9223372036854775807n })
  t.strictSame(await client.getPet(2), max, 'read back digit for digit')

  // Ids past 2^53, put there directly: the service assigns the next ones after them.
  await sql`insert into pets (id, name, category_id) values (${9007199254740993n}, 'Big', 1)`.execute(app.db)
  const next = await client.createPet({ name: 'Next', categoryId: 1 })
  t.strictSame(next, { id: 9007199254740994n, name: 'Next', categoryId: 1 })
  t.strictSame(await client.getPet(9007199254740993n), { id: 9007199254740993n, name: 'Big', categoryId: 1 })
  t.strictSame((await collect(client.listPets({ limit: 1 }))).map((pet) => pet.id), [1, 2, 9007199254740993n, 9007199254740994n],
    'cursors past 2^53 page on exactly')
})

t.test('a number past 2^53 has already lost digits: refused before anything is sent', async (t) => {
  const { app, baseUrl } = await listening(t)
  const client = clientOf(baseUrl)
  await t.rejects(client.createPet({ name: 'Rounded', categoryId: 2 ** 53 + 2 }), new RangeError(
    `body.categoryId is ${2 ** 53 + 2}, beyond 2^53 and so already rounded: pass it as a bigint`))
  await t.rejects(client.getPet(2 ** 60), new RangeError(`petId is ${2 ** 60}, beyond 2^53 and so already rounded: pass it as a bigint`))
  t.equal(await rowCount(app, 'pets'), 0)
})

t.test('updatePet sends a merge patch, and If-Match when the options give one', async (t) => {
  const { baseUrl } = await listening(t)
  const { urls, fetch } = recording()
  const types: Array<string | null> = []
  const client = clientOf(baseUrl, { fetch: (request) => { types.push(request.headers.get('content-type')); return fetch(request) } })
  await client.createPet({ name: 'Rex', categoryId: 1, status: 'available' })
  t.strictSame(await client.updatePet(1, { name: 'Rexy', status: null }), { id: 1, name: 'Rexy', categoryId: 1 }, 'null removes the status')
  t.strictSame(types.at(-1), 'application/merge-patch+json')
  t.strictSame(await client.updatePet(1, { status: 'sold' }, { ifMatch: '*' }), { id: 1, name: 'Rexy', categoryId: 1, status: 'sold' })
  await t.rejects(client.updatePet(1, { status: 'available' }, { ifMatch: '"stale"' }), {
    name: 'PetstoreError', status: 412, code: 'precondition_failed', message: 'Pet 1 was not changed: its current ETag is not one If-Match names'
  })
  t.strictSame(await client.getPet(1), { id: 1, name: 'Rexy', categoryId: 1, status: 'sold' }, 'the refused edit changed nothing')
  t.equal(urls.filter((url) => url.endsWith('/pets/1')).length, 4)
})
