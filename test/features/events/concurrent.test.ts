/**
 * The feed under concurrent writers on two instances sharing one database: a reader that
 * follows the Links while the writes go on sees every event once, in the order the whole
 * feed has once they are done: no event ever appears below a position the reader has
 * passed. On PostgreSQL the transactions commit in any order, which is what this is for;
 * on SQLite the two instances share a file.
 */
import { join } from 'node:path'
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { AUTH, build, JSON_HEADERS, TEST_DATABASE, testDatabaseUrl } from '../../helpers/app.ts'
import { readFeed, summary, type FeedEvent } from '../../helpers/events.ts'
import { tempDir } from '../../helpers/process.ts'

const PETS = 200
const IN_FLIGHT = 16

/** Follows the feed from the start with `wait`, until `done()` and an empty page after it. */
async function follow (app: FastifyInstance, done: () => boolean): Promise<FeedEvent[]> {
  const seen: FeedEvent[] = []
  let next = '/v1/events?limit=50&wait=1'
  for (;;) {
    const finished = done()
    const page = await readFeed(app, next)
    seen.push(...page.events)
    next = page.next
    if (finished && page.events.length === 0) return seen
  }
}

t.test(`a reader following the feed while ${PETS} pets are created on two instances sees each event once, in the final order`, async (t) => {
  const url = TEST_DATABASE === 'postgres' ? await testDatabaseUrl(t) : join(tempDir(t), 'shared.db')
  const instances = [await build(t, { database: { url } }), await build(t, { database: { url } })]
  let writing = true
  const reader = follow(instances[1]!, () => !writing)

  // Creates, and an order placed and cancelled for every tenth pet: changes of two events.
  let made = 0
  const writer = async () => {
    for (let n = made++; n < PETS; n = made++) {
      const app = instances[n % 2]!
      const created = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: `pet ${n}`, categoryId: 1, status: 'available' } })
      if (created.statusCode !== 201) throw new Error(`create ${n}: ${created.statusCode} ${created.body}`)
      if (n % 10 !== 0) continue
      const placed = await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: created.json().id } })
      if (placed.statusCode !== 201) throw new Error(`order ${n}: ${placed.statusCode} ${placed.body}`)
      const cancelled = await instances[(n + 1) % 2]!.inject({ method: 'DELETE', url: `/v1/store/orders/${String(placed.json().id)}`, headers: AUTH })
      if (cancelled.statusCode !== 204) throw new Error(`cancel ${n}: ${cancelled.statusCode} ${cancelled.body}`)
    }
  }
  await Promise.all(Array.from({ length: IN_FLIGHT }, writer))
  // Every write has been answered; a numbering pass follows each answer on PostgreSQL.
  writing = false
  const seen = await reader

  const final = (await readFeed(instances[0]!, '/v1/events?limit=100')).events
  const orders = PETS / 10
  t.equal(final.length, PETS + orders * 4, 'a pet.created per pet, and two events for each order placed and cancelled')
  t.equal(seen.length, final.length, 'the reader saw every event')
  t.same(seen.map((event) => event.id), final.map((event) => event.id), 'once each, in the order of the whole feed: none appeared below a position it had passed')
  const created = final.filter((event) => event.type === 'pet.created').map((event) => Number(event.data.id)).sort((a, b) => a - b)
  t.same(created, Array.from({ length: PETS }, (_, i) => i + 1), 'every pet created is there')
  const kinds = summary(final).map((line) => line.split(' ')[0])
  for (const [i, kind] of kinds.entries()) {
    if (kind === 'order.placed' || kind === 'order.cancelled') {
      t.equal(kinds[i + 1], 'pet.updated', `${kind} at ${i} is followed by its pet's pet.updated`)
      t.equal(final[i + 1]!.data.id, final[i]!.data.petId)
    }
  }
})
