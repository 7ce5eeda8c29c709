/**
 * `recover` written a batch of events at a time, on whichever database this run tests: the
 * same deliveries scheduled as by one write, across the batches' edges, each batch a write
 * of its own so that the API's writes go between them.
 */
import t from 'tap'
import { recoverDeliveries } from '../../../src/features/webhooks/deliveries.ts'
import { recordingDatabase } from '../../helpers/app.ts'

const LONG_AGO = '2026-01-01T00:00:00.000Z'

t.test('a recovery over more events than a batch schedules each one missed, a batch a write', async (t) => {
  const { db, statements } = await recordingDatabase(t)
  await db.insertInto('webhook_endpoints').values({ id: 1, url: 'https://public.test/', events: '["pet.*"]', enabled: 1, created_at: LONG_AGO, secret: 'v1:0000000000000000:x' } as never).execute()
  for (let i = 1; i <= 5; i++) {
    await db.insertInto('events').values({ id: `evt_${i}`, type: i === 4 ? 'order.placed' : 'pet.created', occurred_at: `2026-11-0${i}T00:00:00.000Z`, data: '{}', sequence: i } as never).execute()
  }
  // Event 2 was received, 3 failed; 1 and 5 were missed while it was disabled; 4 is not a type it selects.
  await db.insertInto('webhook_deliveries').values([
    { endpoint_id: 1, event_id: 'evt_2', attempt: 1, first_attempt: 1, outcome: 'succeeded' },
    { endpoint_id: 1, event_id: 'evt_3', attempt: 1, first_attempt: 1, outcome: 'failed' }
  ]).execute()
  statements.length = 0
  const now = new Date('2026-11-28T00:00:00.000Z')
  const scheduled = await recoverDeliveries(db, { endpointId: 1, since: new Date(LONG_AGO), createdAt: LONG_AGO, types: ['pet.created', 'pet.updated'], now, batch: 2 })
  t.equal(scheduled, 3)
  const pending = await db.selectFrom('webhook_deliveries').select(['event_id', 'attempt']).where('outcome', '=', 'pending').orderBy('event_id').execute()
  t.same(pending.map((row) => [row.event_id, Number(row.attempt)]), [['evt_1', 1], ['evt_3', 2], ['evt_5', 1]])
  t.equal(statements.filter((statement) => statement.startsWith('insert into "webhook_deliveries"')).length, 3, 'events 1-2, 3-4 and 5, each its own write')
})
