/**
 * The response cache's size is the memory its entries take: RESPONSE_CACHE_MB=4 costs an
 * instance about 4 MiB, whether the answers are single pets, with an index entry each, or
 * pages with headers of their own. Measured on the heap, collected before and after.
 */
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import t from 'tap'
import { flat, ResponseCache, type CachedAnswer } from '../../../src/features/response-cache/cache.ts'
import { recordReads, readPage, readRow, type Read } from '../../../src/database/row-reads.ts'

setFlagsFromString('--expose-gc')
const gc = runInNewContext('gc') as () => void

/**
 * The heap the cache's entries take, beside what the cache counts them as: the heap with the
 * cache, less the heap once it is gone, both measured after a full collection, with nothing
 * run between them.
 */
async function filled (count: number, answer: (i: number) => { key: string, answer: CachedAnswer, reads: Read[] }) {
  let cache: ResponseCache | undefined = new ResponseCache({ waitsOnDatabase: false, read: async () => ({ version: [1, 0], changes: [] }) }, 1 << 30)
  const lookup = await cache.version()
  for (let i = 0; i < count; i++) {
    const made = answer(i)
    cache.keep(made.key, lookup, made.answer, made.reads)
  }
  const { bytes: counted, size: kept } = cache
  const collected = () => {
    // Twice: once, in a full run of the suite, one collection left most of the cache on the heap.
    gc()
    gc()
    return process.memoryUsage().heapUsed
  }
  const withCache = collected()
  cache = undefined
  const without = collected()
  return { heap: withCache - without, counted, kept }
}

/** The reads a handler records, as it records them (pushed one by one). */
function recorded (record: (reply: object) => void): Read[] {
  const reply = {}
  const reads = recordReads(reply)
  record(reply)
  return reads
}

/** One empty headers object for every answer without headers, as the service shares one. */
const NO_HEADERS = Object.freeze({})
const pet = (i: number) => JSON.stringify({ id: i, name: `Rex ${i}`, category: { id: 1, name: 'Dogs' }, photoUrls: [], tags: [], status: 'available' })

t.test('single pets: counted as the memory they take, from two thirds of it to half as much again', async (t) => {
  const { heap, counted, kept } = await filled(5000, (i) => ({
    key: flat(`getPet/${i}`),
    answer: { body: flat(pet(i)), etag: flat(`"${i.toString(16).padStart(27, '0')}"`), headers: NO_HEADERS },
    reads: recorded((reply) => readRow(reply, 'pets', i))
  }))
  t.equal(kept, 5000)
  t.ok(counted > heap * 0.67 && counted < heap * 1.5, `${counted} bytes counted, ${heap} taken`)
})

t.test('pages with a Link header: counted as the memory they take, from two thirds of it to half as much again', async (t) => {
  const { heap, counted, kept } = await filled(1000, (i) => ({
    key: flat(`listPets?cursor=${Buffer.from(String(i)).toString('base64url')}&limit=20`),
    answer: {
      body: flat(`[${Array.from({ length: 20 }, (_, j) => pet(i + j)).join(',')}]`),
      etag: flat(`"${i.toString(16).padStart(27, '0')}"`),
      headers: { link: `</v1/pets?limit=20&cursor=${i + 20}>; rel="next"` }
    },
    reads: recorded((reply) => readPage(reply, 'pets', i, i + 20))
  }))
  t.equal(kept, 1000)
  t.ok(counted > heap * 0.67 && counted < heap * 1.5, `${counted} bytes counted, ${heap} taken`)
})
