/**
 * The feed from the outside: two services as `npm start` runs them, sharing one PostgreSQL
 * database. A reader follows the feed's Links, alternating between the instances, while
 * 200 pets are created at once across both: it sees each creation once, in the order the
 * feed finally holds. A reader waiting on one instance is answered by a create on the other.
 */
import t from 'tap'
import { startServer } from '../helpers/process.ts'
import { createPostgresDatabase, postgresSkipReason } from '../helpers/services.ts'
import { nextLink } from '../helpers/store.ts'

const KEY = 'two-instances-feed-test-key-not-a-secret'
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
const skip = await postgresSkipReason()

interface Event { id: string, type: string, sequence: number, data: { id: number } }

/** One page of the feed, and the path of the next. */
async function page (base: string, path: string): Promise<{ events: Event[], next: string }> {
  const res = await fetch(`${base}${path}`, { headers })
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`)
  return { events: await res.json() as Event[], next: nextLink(res.headers.get('link'))! }
}

t.test('two instances: a reader following the feed sees each of 200 concurrent creates once, in the final order', { skip, timeout: 25_000 }, async (t) => {
  const env = { DATABASE_URL: await createPostgresDatabase(t), PETSTORE_API_KEYS: KEY, RATE_LIMIT_MAX: '0', LOG_LEVEL: 'warn' }
  // One after the other: the first migrates the database.
  const bases = [(await startServer(t, env, { built: true })).base, (await startServer(t, env, { built: true })).base]

  const followed: Event[] = []
  const follow = (async () => {
    let path = '/v1/events?limit=25&wait=5'
    for (let i = 0; followed.length < 200; i++) {
      const read = await page(bases[i % 2]!, path)
      followed.push(...read.events)
      path = read.next
    }
    return path
  })()

  const created: number[] = []
  for (let batch = 0; batch < 10; batch++) {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      fetch(`${bases[i % 2]}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `pet ${batch}-${i}`, categoryId: 1 }) })))
    for (const res of answers) {
      t.equal(res.status, 201)
      created.push((await res.json() as { id: number }).id)
    }
  }
  const end = await follow

  t.equal(followed.length, 200, 'no more than 200 events')
  t.equal(new Set(followed.map((event) => event.id)).size, 200, 'none seen twice')
  t.same(followed.map((event) => event.data.id).sort((a, b) => a - b), created.sort((a, b) => a - b), 'every pet created is in it')
  t.ok(followed.every((event, i) => event.type === 'pet.created' && (i === 0 || event.sequence > followed[i - 1]!.sequence)), 'pet.created events in increasing sequence')
  const final: Event[] = []
  for (let path = '/v1/events?limit=100', read; ; path = read.next) {
    read = await page(bases[1]!, path)
    if (read.events.length === 0) break
    final.push(...read.events)
  }
  t.same(final.map((event) => event.id), followed.map((event) => event.id), 'the feed read again holds the same events in the same order')

  // A reader waiting at the end, on the first instance, for the next event, made on the
  // second; a wait that ended at its 30 s instead would outlast this test's time.
  const waiting = page(bases[0]!, end.replace('wait=5', 'wait=30'))
  const more = await fetch(`${bases[1]}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'the next one', categoryId: 1 }) })
  t.equal(more.status, 201)
  const { id } = await more.json() as { id: number }
  const woken = await waiting
  t.same(woken.events.map((event) => [event.type, event.data.id]), [['pet.created', id]])
})
