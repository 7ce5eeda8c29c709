/**
 * The response cache drops what a change can affect, and only that: an answer made from
 * rows goes when one of them changes, whatever else changes; one made from anything goes
 * with any commit. Readings are given by hand here; test/database/row-changes.test.ts
 * proves the databases give them, and ./freshness-property.test.ts the whole, from outside.
 */
import t from 'tap'
import type { Reading } from '../../../src/database/data-version.ts'
import type { RowChange } from '../../../src/database/row-changes.ts'
import { ResponseCache } from '../../../src/features/response-cache/cache.ts'
import { affects, readPage, readRow, recordReads, type Read } from '../../../src/database/row-reads.ts'

const answer = (body: string) => ({ body, etag: `"${body}"`, headers: {} })
const pet = (id: number): RowChange => ({ table: 'pets', id: BigInt(id) })
const order = (id: number): RowChange => ({ table: 'orders', id: BigInt(id) })
const row = (id: number): Read => ({ table: 'pets', id: BigInt(id) })
const page = (after: number, through?: number): Read => ({ table: 'pets', after: BigInt(after), through: through === undefined ? undefined : BigInt(through) })

/** A cache whose readings are given by `next`: each call, a new reading at a new version. */
function cacheWith (maxBytes = 1 << 20) {
  let version = 0
  let pending: readonly RowChange[] | undefined = []
  const cache = new ResponseCache({
    waitsOnDatabase: false,
    read: async (): Promise<Reading> => {
      const reading = { version: `v${version}`, changes: pending }
      pending = []
      return reading
    }
  }, maxBytes)
  /** The next reading will be at a new version, with these changes (not known when undefined). */
  const commit = (changes: readonly RowChange[] | undefined) => { version++; pending = changes }
  return { cache, commit }
}

t.test('a change to a row drops the answers made from it, and no other', async (t) => {
  const { cache, commit } = cacheWith()
  let lookup = await cache.version()
  cache.keep('getPet/1', lookup, answer('one'), [row(1)])
  cache.keep('getPet/2', lookup, answer('two'), [row(2)])
  cache.keep('getOrder/1', lookup, answer('order one'), [{ table: 'orders', id: 1n }])
  cache.keep('listEvents', lookup, answer('events'))
  commit([pet(2)])
  lookup = await cache.version()
  t.match(cache.get('getPet/1', lookup), answer('one'), 'another pet changed: still served')
  t.equal(cache.get('getPet/2', lookup), undefined, 'its pet changed: dropped')
  t.match(cache.get('getOrder/1', lookup), answer('order one'), 'an order is not a pet')
  t.equal(cache.get('listEvents', lookup), undefined, 'made from anything: gone with any commit')
  t.equal(cache.size, 2)
  commit([order(1)])
  lookup = await cache.version()
  t.equal(cache.get('getOrder/1', lookup), undefined, 'its order changed')
  t.match(cache.get('getPet/1', lookup), answer('one'))
})

t.test('a row several answers were made from drops each of them, and one gone leaves the others', async (t) => {
  const { cache, commit } = cacheWith()
  let lookup = await cache.version()
  cache.keep('getPet/1', lookup, answer('one'), [row(1)])
  cache.keep('getPet/1', lookup, answer('one again'), [row(1)])
  cache.keep('getPet/1;text', lookup, answer('one, as text'), [row(1)])
  cache.keep('pair', lookup, answer('one and two'), [row(1), row(2)])
  commit([pet(2)])
  lookup = await cache.version()
  t.equal(cache.get('pair', lookup), undefined, 'made from the pet that changed too')
  t.match(cache.get('getPet/1', lookup), answer('one again'), 'replaced, and still served')
  t.match(cache.get('getPet/1;text', lookup), answer('one, as text'))
  commit([pet(1)])
  lookup = await cache.version()
  t.equal(cache.size, 0, 'both answers of the pet that changed')
  cache.keep('getPet/1', lookup, answer('one, later'), [row(1)])
  commit([pet(1)])
  lookup = await cache.version()
  t.equal(cache.size, 0, 'and its answer kept after them')
})

t.test('a page is made from the rows after its cursor up to the one that told more follow', async (t) => {
  t.ok(affects(pet(5), page(0, 5)), 'the row that told more follow: were it gone, the Link would be')
  t.notOk(affects(pet(6), page(0, 5)), 'past it: neither the items nor the Link can change')
  t.notOk(affects(pet(3), page(3, 5)), 'the cursor row itself is on the page before')
  t.ok(affects(pet(4), page(3, 5)))
  t.ok(affects(pet(1_000_000), page(3)), 'the last page: any row after its cursor, a new pet too')
  t.notOk(affects(order(4), page(3, 5)), 'another table')
  t.ok(affects(pet(2 ** 60), page(2 ** 53, undefined)), 'ids past 2^53 compared exactly')

  const { cache, commit } = cacheWith()
  let lookup = await cache.version()
  cache.keep('listPets?limit=2', lookup, answer('first page'), [page(0, 3)])
  cache.keep('listPets?cursor=Mg&limit=2', lookup, answer('last page'), [page(2)])
  commit([pet(7)])
  lookup = await cache.version()
  t.match(cache.get('listPets?limit=2', lookup), answer('first page'), 'a new pet leaves a full page')
  t.equal(cache.get('listPets?cursor=Mg&limit=2', lookup), undefined, 'and drops the last one')
  commit([pet(3)])
  lookup = await cache.version()
  t.equal(cache.get('listPets?limit=2', lookup), undefined, 'a change to its next row drops it')
})

t.test('a table emptied at once (row 0) drops every answer made from it', async (t) => {
  const { cache, commit } = cacheWith()
  let lookup = await cache.version()
  cache.keep('getPet/1', lookup, answer('one'), [row(1)])
  cache.keep('listPets?limit=2', lookup, answer('page'), [page(0, 3)])
  cache.keep('getOrder/1', lookup, answer('order'), [{ table: 'orders', id: 1n }])
  commit([pet(0)])
  lookup = await cache.version()
  t.equal(cache.size, 1, 'the pets gone')
  t.match(cache.get('getOrder/1', lookup), answer('order'), 'the orders kept')
})

t.test('an answer is not kept if a change applied since its lookup touches its rows', async (t) => {
  const { cache, commit } = cacheWith()
  const before = await cache.version()
  commit([pet(1)])
  await cache.version()
  cache.keep('getPet/1', before, answer('maybe stale'), [row(1)])
  t.equal(cache.size, 0, 'its pet changed while its query ran: the query may have read before the change')
  cache.keep('getPet/2', before, answer('two'), [row(2)])
  t.equal(cache.size, 1, 'another pet changed: kept')
  commit(undefined)
  const after = await cache.version()
  t.equal(cache.size, 0, 'changes not known: every answer goes')
  cache.keep('getPet/2', before, answer('two'), [row(2)])
  t.equal(cache.size, 0, 'nor is an answer kept whose lookup came before changes not known')
  cache.keep('getPet/2', after, answer('two'), [row(2)])
  t.match(cache.get('getPet/2', after), answer('two'))
})

t.test('past the changes logged, an answer from an older lookup is not kept', async (t) => {
  const { cache, commit } = cacheWith()
  const before = await cache.version()
  for (let i = 0; i < 5; i++) {
    commit(Array.from({ length: 1000 }, (_, j) => pet(1000 * i + j + 10)))
    await cache.version()
  }
  cache.keep('getPet/1', before, answer('one'), [row(1)])
  t.equal(cache.size, 0, 'the log no longer tells what changed since: not kept, though pet 1 never changed')
  const now = await cache.version()
  cache.keep('getPet/1', now, answer('one'), [row(1)])
  t.equal(cache.size, 1)
})

t.test('an answer pushed out, replaced or dropped leaves nothing behind', async (t) => {
  const { cache, commit } = cacheWith(5_000)
  let lookup = await cache.version()
  for (let i = 0; i < 50; i++) cache.keep(`getPet/${i}`, lookup, answer('x'.repeat(500)), [row(i)])
  t.ok(cache.size < 50, 'the oldest pushed out')
  cache.keep('getPet/49', lookup, answer('replaced'), [row(49)])
  commit(Array.from({ length: 50 }, (_, i) => pet(i)))
  lookup = await cache.version()
  t.equal(cache.size, 0, 'every change found its answer, however it came to be kept')
  cache.keep('big', lookup, answer('x'.repeat(10_000)), [row(1)])
  t.equal(cache.size, 0, 'an answer larger than the cache is not kept')
  commit([pet(1)])
  await cache.version()
  t.equal(cache.size, 0)
})

t.test('a handler tells what it read only while the cache records for its reply', async (t) => {
  const reply = {}
  readRow(reply, 'pets', 1)
  const reads = recordReads(reply)
  readRow(reply, 'pets', 2)
  readPage(reply, 'orders', 0, 21n)
  readPage(reply, 'orders', 21, undefined)
  t.same(reads, [
    { table: 'pets', id: 2n },
    { table: 'orders', after: 0n, through: 21n },
    { table: 'orders', after: 21n, through: undefined }
  ])
})
