/**
 * A batch's acknowledgements (src/features/event-stream/acks.ts): answered in any order, the
 * batch counts the stored ones up to the first that was not, or that had no answer in time.
 */
import t from 'tap'
import { BatchAcks } from '../../../src/features/event-stream/acks.ts'

t.test('every message stored, answered in any order: all confirmed', async (t) => {
  const acks = new BatchAcks(10, 3)
  acks.answer(12, null)
  acks.answer(10, null)
  acks.answer(11, null)
  t.same(await acks.confirmed(60_000, 'acks'), { confirmed: 3 })
})

t.test('a refusal: the messages before it are confirmed, with its reason', async (t) => {
  const acks = new BatchAcks(0, 4)
  const refused = new Error('no stream')
  acks.answer(0, null)
  acks.answer(3, null)
  acks.answer(2, refused)
  acks.answer(1, null)
  t.same(await acks.confirmed(60_000, 'acks'), { confirmed: 2, error: refused })
})

t.test('an answer to another batch, or a second answer, changes nothing', async (t) => {
  const acks = new BatchAcks(5, 2)
  acks.answer(4, new Error('an earlier batch'))
  acks.answer(7, new Error('a later batch'))
  acks.answer(Number.NaN, new Error('no number'))
  acks.answer(5, null)
  acks.answer(5, new Error('again'))
  acks.answer(6, null)
  t.same(await acks.confirmed(60_000, 'acks'), { confirmed: 2 })
})

t.test('an answer that does not come: the ones before it, and a timeout naming what it waited for', async (t) => {
  const acks = new BatchAcks(0, 3)
  acks.answer(0, null)
  acks.answer(2, null)
  const outcome = await acks.confirmed(20, 'NATS JetStream acknowledgements')
  t.equal(outcome.confirmed, 1)
  t.match(outcome.error, { message: 'NATS JetStream acknowledgements: no answer within 20 ms' })
})

t.test('sending stopped part way: only those sent are awaited, the rest fail with the cause', async (t) => {
  const acks = new BatchAcks(0, 3)
  const closed = new Error('connection closed')
  acks.sentOnly(1, closed)
  acks.answer(0, null)
  t.same(await acks.confirmed(60_000, 'acks'), { confirmed: 1, error: closed })
})

t.test('the connection failing fails every message not answered yet', async (t) => {
  const acks = new BatchAcks(0, 3)
  const lost = new Error('connection lost')
  acks.answer(0, null)
  acks.failAll(lost)
  acks.answer(1, null)
  t.same(await acks.confirmed(60_000, 'acks'), { confirmed: 1, error: lost })
})

t.test('an empty batch is confirmed at once', async (t) => {
  t.same(await new BatchAcks(0, 0).confirmed(60_000, 'acks'), { confirmed: 0 })
})
