/**
 * Claiming due deliveries, on whichever database this run tests: each enabled endpoint gets
 * an equal part of the places (at least one, at most its own limit), less its attempts
 * under way, whatever the others' backlogs; and a claim costs the same statements whatever
 * the number of endpoints.
 */
import type { Kysely } from 'kysely'
import t from 'tap'
import { claimDue, type ClaimQuery } from '../../../src/features/webhooks/claims.ts'
import type { Database } from '../../../src/database/schema.ts'
import { recordingDatabase } from '../../helpers/app.ts'

const NOW = new Date('2026-11-28T12:00:00.000Z')

/** `endpoints` enabled endpoints, each with `due` deliveries due, of one numbered event. */
async function backlog (db: Kysely<Database>, endpoints: number, due: number): Promise<void> {
  await db.insertInto('events').values({ id: 'evt_claims', type: 'pet.created', occurred_at: NOW.toISOString(), data: '{}', sequence: 1 } as never).execute()
  for (let e = 1; e <= endpoints; e++) {
    await db.insertInto('webhook_endpoints').values({ id: e, url: `https://public.test/${e}`, events: '["*"]', enabled: 1, created_at: NOW.toISOString(), secret: 'v1:0000000000000000:x' } as never).execute()
    await db.insertInto('webhook_deliveries').values(Array.from({ length: due }, () => ({
      endpoint_id: e, event_id: 'evt_claims', attempt: 1, first_attempt: 1, outcome: 'pending', next_attempt_at: NOW.toISOString()
    }))).execute()
  }
}

const query = (underWay: Record<string, number> = {}, concurrency = 64): ClaimQuery => ({
  now: NOW, leaseUntil: new Date(NOW.getTime() + 30_000), concurrency, perEndpoint: 16, underWay: new Map(Object.entries(underWay))
})

/** How many deliveries of each endpoint a claim took. */
const perEndpoint = (claimed: Array<{ endpointId: number | bigint }>) => {
  const counts: Record<string, number> = {}
  for (const { endpointId } of claimed) counts[String(endpointId)] = (counts[String(endpointId)] ?? 0) + 1
  return counts
}

t.test('each endpoint gets its part of the places, less what it has under way', async (t) => {
  const { db } = await recordingDatabase(t)
  await backlog(db, 4, 20)
  const first = await claimDue(db, query({ 1: 16 }))
  t.same(perEndpoint(first.claimed), { 2: 16, 3: 16, 4: 16 }, '64 places for 4: 16 each, the most for one; endpoint 1 has its 16 under way')
  t.equal(first.full, true, 'an endpoint took all it had: more may be due')
  await db.insertInto('webhook_endpoints').values({ id: 5, url: 'https://public.test/5', events: '["*"]', enabled: 1, created_at: NOW.toISOString(), secret: 'v1:0000000000000000:x' } as never).execute()
  await db.insertInto('webhook_deliveries').values({ endpoint_id: 5, event_id: 'evt_claims', attempt: 1, first_attempt: 1, outcome: 'pending', next_attempt_at: NOW.toISOString() }).execute()
  const second = await claimDue(db, query({ 1: 16, 2: 16, 3: 16, 4: 16 }))
  t.same(perEndpoint(second.claimed), { 5: 1 }, 'a fifth endpoint has places of its own while the others hold theirs')
  t.equal(second.full, false, 'it took less than it had')
  const few = await claimDue(db, query({}, 2))
  t.same(perEndpoint(few.claimed), { 1: 1, 2: 1, 3: 1, 4: 1 }, 'fewer places than endpoints: one each')
})

t.test('a claim costs the same statements for 2 endpoints as for 40', async (t) => {
  const counts: number[] = []
  for (const endpoints of [2, 40]) {
    const { db, statements } = await recordingDatabase(t)
    await backlog(db, endpoints, 1)
    statements.length = 0
    const { claimed } = await claimDue(db, query())
    t.equal(claimed.length, endpoints, 'one each')
    counts.push(statements.length)
  }
  t.equal(counts[0], counts[1], `${counts[0]} statements either way`)
})
