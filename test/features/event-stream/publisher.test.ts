/**
 * The publisher (src/features/event-stream/publisher.ts) against a destination the test
 * controls, on whichever database this run tests: one instance at a time holds the lease,
 * another takes over once it passes or is let go; the position moves past what the broker
 * confirmed and no further; a failure is retried with backoff, said once when publishing
 * stops and once when it resumes; a lost lease stops publishing; a database that fails is
 * retried too.
 */
import type { Kysely } from 'kysely'
import t, { type Test } from 'tap'
import { recordingDatabase } from '../../helpers/app.ts'
import { captureLog } from '../../helpers/log.ts'
import { until } from '../../helpers/until.ts'
import pino from 'pino'
import { poolOf } from '../../../src/database/connect.ts'
import { write } from '../../../src/database/group-commit.ts'
import type { Database } from '../../../src/database/schema.ts'
import { ChangeSignal } from '../../../src/features/events/signal.ts'
import { recordEvents } from '../../../src/features/events/outbox.ts'
import { numberCommittedEvents } from '../../../src/features/events/sequencer.ts'
import type { Destination } from '../../../src/features/event-stream/destination.ts'
import type { StreamMessage } from '../../../src/features/event-stream/message.ts'
import { Publisher } from '../../../src/features/event-stream/publisher.ts'
import { brokerAddress } from '../../../src/features/event-stream/destination.ts'
import { openDestination } from '../../../src/features/event-stream/open.ts'

/** A broker in memory: keeps what it confirms; `answer` says how many of each batch it confirms, and the error for the rest. */
interface FakeBroker {
  stored: StreamMessage[]
  closes: number
  answer: (messages: readonly StreamMessage[]) => { confirmed: number, error?: unknown }
  destination: Destination
}

function fakeBroker (name = 'fake STREAM'): FakeBroker {
  const broker: FakeBroker = {
    stored: [] as StreamMessage[],
    closes: 0,
    answer: (messages: readonly StreamMessage[]): { confirmed: number, error?: unknown } => ({ confirmed: messages.length }),
    destination: {
      name,
      address: 'fake://broker',
      async publish (messages: readonly StreamMessage[]) {
        const result = broker.answer(messages)
        broker.stored.push(...messages.slice(0, result.confirmed))
        return result
      },
      async close () { broker.closes++ }
    }
  }
  return broker
}

async function addEvents (db: Kysely<Database>, count: number): Promise<void> {
  for (let i = 0; i < count; i++) await write(db, (db) => recordEvents(db, [{ type: 'pet.created', data: { id: i + 1, name: `pet ${i + 1}` } }]))
  const pool = poolOf(db)
  if (pool !== undefined) await numberCommittedEvents(pool)
}

function publisher (t: Test, db: Kysely<Database>, destination: Destination, options: { log?: ReturnType<typeof captureLog>, signal?: ChangeSignal, leaseMs?: number } = {}) {
  const signal = options.signal ?? new ChangeSignal()
  const log = options.log ?? captureLog()
  const published: number[] = []
  const it = new Publisher(db, {
    destination,
    wakeup: signal,
    serialize: (event) => JSON.stringify({ id: event.id, type: event.type }),
    log: pino({ level: 'debug' }, log.stream),
    published: (count) => published.push(count),
    leaseMs: options.leaseMs ?? 600,
    standbyPollMs: 20,
    pollIntervalMs: 20,
    batchSize: 4,
    flowGapMs: 1,
    retryMinMs: 10,
    retryMaxMs: 40
  })
  let closed = false
  t.teardown(async () => { if (!closed) await it.close() })
  return { it, published, signal, log, close: async () => { closed = true; await it.close() } }
}

const storedPosition = async (db: Kysely<Database>, destination = 'fake STREAM') =>
  (await db.selectFrom('event_stream_positions').selectAll().where('destination', '=', destination).executeTakeFirst())

t.test('every event in order, in batches, the position past the last confirmed', async (t) => {
  const { db } = await recordingDatabase(t)
  await addEvents(db, 10)
  const broker = fakeBroker()
  const { it, published, signal } = publisher(t, db, broker.destination)
  it.start()
  await until(() => broker.stored.length === 10, '10 published')
  const ids = (await db.selectFrom('events').select('id').orderBy('sequence').execute()).map((row) => row.id)
  t.same(broker.stored.map((message) => message.id), ids)
  t.same(broker.stored[0], { id: ids[0], type: 'pet.created', time: broker.stored[0]!.time, body: JSON.stringify({ id: ids[0], type: 'pet.created' }) })
  await until(() => it.position !== undefined && Number(it.position) === 10, 'the position at the last')
  t.same(published, [4, 4, 2], 'counted as confirmed, a batch at a time')
  await addEvents(db, 1)
  signal.notify()
  await until(() => broker.stored.length === 11, 'a new event, once the feed moves')
})

t.test('one publisher at a time; another takes over once the lease is let go, or has passed', async (t) => {
  const { db } = await recordingDatabase(t)
  await addEvents(db, 3)
  const broker = fakeBroker()
  const first = publisher(t, db, broker.destination)
  first.it.start()
  await until(() => broker.stored.length === 3, 'the first publishing')
  const second = publisher(t, db, broker.destination)
  second.it.start()
  await addEvents(db, 2)
  first.signal.notify()
  await until(() => broker.stored.length === 5, 'the new events')
  t.equal(second.it.position, undefined, 'the second waits')
  await first.close()
  t.equal((await storedPosition(db))?.holder, null, 'let go on close')
  await addEvents(db, 1)
  await until(() => broker.stored.length === 6, 'the second publishing')
  t.same(broker.stored.map((message) => message.id), [...new Set(broker.stored.map((message) => message.id))], 'none twice')
  t.equal(broker.closes, 1, 'the first closed its connection')

  // A holder that stops renewing (a crash: here, a lease that passes at once) is taken over.
  const third = publisher(t, db, broker.destination, { leaseMs: 600 })
  third.it.start()
  await db.updateTable('event_stream_positions').set({ lease_until: new Date(Date.now() - 1000).toISOString(), holder: 'crashed' }).execute()
  await until(() => third.it.position !== undefined || second.it.position === undefined, 'a new holder')
  await addEvents(db, 1)
  // The holder that lost its lease may have published before it found out: the same event
  // again (a redelivery, with its id), never one skipped.
  await until(() => new Set(broker.stored.map((message) => message.id)).size === 7, 'published by whichever holds it')
})

t.test('a broker that fails: retried with backoff from the first unconfirmed, said once when it stops and once when it resumes', async (t) => {
  const { db } = await recordingDatabase(t)
  await addEvents(db, 6)
  const broker = fakeBroker()
  let failures = 0
  broker.answer = (messages) => {
    failures++
    // The first batch: two confirmed, then the broker fails a few times.
    if (failures === 1) return { confirmed: 2, error: new Error('connection reset') }
    if (failures < 5) return { confirmed: 0, error: new Error('connection refused') }
    return { confirmed: messages.length }
  }
  const log = captureLog()
  const { it } = publisher(t, db, broker.destination, { log })
  it.start()
  await until(() => broker.stored.length === 6, 'every event, once the broker answers')
  t.same(broker.stored.map((message) => message.id), (await db.selectFrom('events').select('id').orderBy('sequence').execute()).map((row) => row.id), 'in order, none twice')
  // Said once the position has moved past them, a few awaits after the broker took them.
  await until(() => log.lines.some((line) => line.msg === 'event stream publishing resumed'), 'the log saying publishing resumed')
  const lines = log.lines.filter((line) => line.level >= 30).map((line) => line.msg)
  t.same(lines.filter((msg) => msg.startsWith('event stream publishing')), [
    'event stream publishing stopped: the broker at fake://broker failed; the events wait in the database and are published once it answers',
    'event stream publishing resumed'
  ])
  const stopped = log.lines.find((line) => line.msg.startsWith('event stream publishing stopped'))!
  t.equal(stopped.err.message, 'connection reset')
  t.equal(stopped.fault, 'broker')
  t.ok(log.lines.find((line) => line.msg === 'event stream publishing resumed')!.stoppedMs >= 0)
  t.equal(log.lines.filter((line) => line.msg === 'event stream publishing still failing').length, 3, 'each retry at debug level')
})

t.test('a publisher whose lease was taken stops, and the new holder publishes from the stored position', async (t) => {
  const { db } = await recordingDatabase(t)
  await addEvents(db, 2)
  const broker = fakeBroker()
  const log = captureLog()
  const { it, signal } = publisher(t, db, broker.destination, { log })
  it.start()
  await until(() => broker.stored.length === 2, 'published')
  await db.updateTable('event_stream_positions').set({ holder: 'another', lease_until: new Date(Date.now() + 60_000).toISOString() }).execute()
  await addEvents(db, 1)
  signal.notify()
  await until(() => it.position === undefined, 'the lease lost')
  t.ok(log.lines.some((line) => line.msg === 'another instance took over publishing to the event stream'))
  // Published once more by the one that lost it (the broker confirmed before the position's update failed): a redelivery.
  t.ok(broker.stored.length <= 3)
})

t.test('a database that fails is retried, and said once', async (t) => {
  const { db } = await recordingDatabase(t)
  await addEvents(db, 1)
  const broker = fakeBroker()
  const log = captureLog()
  // The position's table gone for a moment: every read and write of it fails.
  await db.schema.alterTable('event_stream_positions').renameTo('event_stream_positions_away').execute()
  const { it } = publisher(t, db, broker.destination, { log })
  it.start()
  await until(() => log.lines.some((line) => line.msg.startsWith('event stream publishing stopped: the database')), 'the log line')
  await db.schema.alterTable('event_stream_positions_away').renameTo('event_stream_positions').execute()
  await until(() => broker.stored.length === 1, 'published once the database answers')
  await until(() => log.lines.some((line) => line.msg === 'event stream publishing resumed'), 'resumed')
  t.equal(log.lines.filter((line) => line.msg.startsWith('event stream publishing stopped')).length, 1)
})

t.test('a stop whose lease cannot be let go says so', async (t) => {
  const { db } = await recordingDatabase(t)
  const broker = fakeBroker()
  const log = captureLog()
  const { it, close } = publisher(t, db, broker.destination, { log })
  it.start()
  await until(() => it.position !== undefined, 'holding')
  await db.schema.alterTable('event_stream_positions').renameTo('event_stream_positions_away').execute()
  t.teardown(() => db.schema.alterTable('event_stream_positions_away').renameTo('event_stream_positions').execute())
  await close()
  t.ok(log.lines.some((line) => line.msg === 'could not let the event stream lease go; another instance takes over once it passes'))
})

t.test('the broker\'s address in the log never holds its credentials; an unknown scheme is refused', async (t) => {
  t.equal(brokerAddress('amqp://user:p%40ss@rabbit.internal:5672/vhost?heartbeat=10'), 'amqp://rabbit.internal:5672')
  t.equal(brokerAddress('nats://s3cr3t-token@nats.internal:4222'), 'nats://nats.internal:4222')
  await t.rejects(openDestination({ url: 'kafka://broker:9092', topic: 't', streamName: 'S', source: '/s', brokerTimeoutMs: 100 }),
    /EVENT_STREAM_URL: kafka: is neither nats:, tls: \(NATS JetStream\) nor amqp:, amqps: \(RabbitMQ\)/)
})

t.test('a position moved back by an operator is read again, and what follows it published again', async (t) => {
  const { db } = await recordingDatabase(t)
  await addEvents(db, 4)
  const broker = fakeBroker()
  const log = captureLog()
  const { it } = publisher(t, db, broker.destination, { log })
  it.start()
  await until(() => it.position === 4n, 'all published')
  await db.updateTable('event_stream_positions').set({ position: 2 }).execute()
  await until(() => broker.stored.length === 6, 'the last two again')
  t.same(broker.stored.slice(4).map((message) => message.id), broker.stored.slice(2, 4).map((message) => message.id))
  t.ok(log.lines.some((line) => line.msg === 'the event stream position was moved back; publishing again from there' && line.position === '2'))
  await until(async () => BigInt((await storedPosition(db))!.position) === 4n, 'the position at the last again')
})

t.test('a stop while a publish hangs closes the broker\'s connection under it, and lets the lease go', async (t) => {
  const { db } = await recordingDatabase(t)
  await addEvents(db, 1)
  let publishing = false
  let release: (() => void) | undefined
  const destination: Destination = {
    name: 'fake STREAM',
    address: 'fake://broker',
    async publish () {
      publishing = true
      await new Promise<void>((resolve) => { release = resolve })
      return { confirmed: 0, error: new Error('the connection closed') }
    },
    async close () { release?.() }
  }
  const { it, close } = publisher(t, db, destination)
  it.start()
  await until(() => publishing, 'a publish under way')
  await close()
  t.equal((await storedPosition(db))?.holder, null, 'the lease let go')
  t.equal(BigInt((await storedPosition(db))!.position), 0n, 'nothing counted as published')
})
