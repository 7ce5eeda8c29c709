/**
 * The event stream from the outside (docs/operating/event-streams.md): the real server, as
 * a process, publishing to the real brokers.
 * - SIGKILL of the publishing instance while creates stream in: a second instance on the
 *   same database takes over once the lease passes, and a consumer that drops ids it has
 *   seen gets every event once, in feed order; JetStream's duplicate window has already
 *   dropped what was published twice.
 * - Two instances as `npm start` runs them, on one PostgreSQL database, creating at once:
 *   one publishes at a time, and RabbitMQ (which drops no duplicate) gets each event once.
 * - On PostgreSQL, an instance that serves the writes without a stream, and one with the
 *   stream that serves nothing: the second publishes every event the first writes.
 */
import { once } from 'node:events'
import { join } from 'node:path'
import pg from 'pg'
import t from 'tap'
import { feedIdsAt } from '../helpers/events.ts'
import { jetStreamConsumer, rabbitMqConsumer, uniqueName } from '../helpers/brokers.ts'
import { startServer, streamCreates, tempDir } from '../helpers/process.ts'
import { createPostgresDatabase, NATS_URL, natsSkipReason, postgresSkipReason, RABBITMQ_URL, rabbitMqSkipReason } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

const KEY = 'event-stream-test-key-not-a-secret'
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }

t.test('SIGKILL of the publishing instance under load loses nothing, and publishes each event once after dedup, in order', {
  skip: await natsSkipReason(), timeout: 90_000
}, async (t) => {
  const stream = uniqueName('TEST_')
  const topic = uniqueName('test.')
  const consumer = await jetStreamConsumer(t, { stream, topic, make: true })
  const env = {
    DATABASE_URL: join(tempDir(t), 'petstore.db'),
    PETSTORE_API_KEYS: KEY,
    RATE_LIMIT_MAX: '0',
    LOG_LEVEL: 'warn',
    EVENT_STREAM_URL: NATS_URL,
    EVENT_STREAM_TOPIC: topic,
    EVENT_STREAM_NAME: stream
  }
  const first = await startServer(t, env, { built: true })
  const load = streamCreates(first.port, KEY, { prefix: 'a-' })
  // Killed while it publishes: some events published, more committed since.
  await until(() => consumer.messages.length >= 100, '100 events published')
  first.child.kill('SIGKILL')
  await once(first.child, 'exit')
  await load.done
  const second = await startServer(t, env, { built: true })
  const more = streamCreates(second.port, KEY, { prefix: 'b-' })
  await until(() => more.outcomes.length >= 50, '50 more creates')
  await more.stop()
  const feed = await feedIdsAt(second.base, KEY)
  t.ok(feed.length >= 150, `${feed.length} events`)
  await until(() => consumer.unique().length >= feed.length, 'every event published', 60_000)
  t.same(consumer.unique().map((message) => message.id), feed, 'each once after dedup, in feed order')
  t.equal(await consumer.streamMessages(), feed.length, 'JetStream dropped what was published again')
})

t.test('two instances on one PostgreSQL database publish each event once', {
  skip: await postgresSkipReason() || await rabbitMqSkipReason(), timeout: 90_000
}, async (t) => {
  const exchange = uniqueName('test.events.')
  const consumer = await rabbitMqConsumer(t, { exchange })
  const env = {
    DATABASE_URL: await createPostgresDatabase(t),
    PETSTORE_API_KEYS: KEY,
    RATE_LIMIT_MAX: '0',
    LOG_LEVEL: 'warn',
    EVENT_STREAM_URL: RABBITMQ_URL,
    EVENT_STREAM_TOPIC: exchange
  }
  // One after the other: the first migrates the database.
  const servers = [await startServer(t, env, { built: true }), await startServer(t, env, { built: true })]
  for (let batch = 0; batch < 10; batch++) {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      fetch(`${servers[i % 2]!.base}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `pet ${batch}-${i}`, categoryId: 1 }) })))
    t.same(answers.map((res) => res.status), Array(20).fill(201))
  }
  await until(() => consumer.messages.length >= 200, '200 messages')
  const feed = await feedIdsAt(servers[1]!.base, KEY)
  t.equal(feed.length, 200)
  t.same(consumer.messages.map((message) => message.id), feed, 'each once, with no dedup, in feed order')
  // The holder stops: the other takes over, at once, as the lease is let go.
  const db = new pg.Client({ connectionString: env.DATABASE_URL })
  await db.connect()
  const { rows } = await db.query<{ holder: string }>('select holder from event_stream_positions')
  await db.end()
  const holder = servers.find((server) => rows[0]!.holder.split(':')[1] === String(server.child.pid))!
  t.ok(holder, 'one of them holds the lease')
  holder.child.kill('SIGTERM')
  await once(holder.child, 'exit')
  const other = servers.find((server) => server !== holder)!
  const res = await fetch(`${other.base}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: 'after', categoryId: 1 }) })
  t.equal(res.status, 201)
  await until(() => consumer.messages.length >= 201, 'the event after the stop, published by the other')
  t.equal(new Set(consumer.messages.map((message) => message.id)).size, consumer.messages.length, 'none twice')
})

t.test('on PostgreSQL, an instance with the stream publishes what an instance without it writes', {
  skip: await postgresSkipReason() || await natsSkipReason(), timeout: 90_000
}, async (t) => {
  const stream = uniqueName('TEST_')
  const topic = uniqueName('test.')
  const consumer = await jetStreamConsumer(t, { stream, topic, make: true })
  const env = { DATABASE_URL: await createPostgresDatabase(t), PETSTORE_API_KEYS: KEY, RATE_LIMIT_MAX: '0', LOG_LEVEL: 'warn' }
  // The one that serves the writes migrates the database; the other only publishes.
  const serving = await startServer(t, env, { built: true })
  await startServer(t, { ...env, EVENT_STREAM_URL: NATS_URL, EVENT_STREAM_TOPIC: topic, EVENT_STREAM_NAME: stream }, { built: true })
  for (let batch = 0; batch < 5; batch++) {
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      fetch(`${serving.base}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name: `pet ${batch}-${i}`, categoryId: 1 }) })))
    t.same(answers.map((res) => res.status), Array(20).fill(201))
  }
  const feed = await feedIdsAt(serving.base, KEY)
  t.equal(feed.length, 100)
  await until(() => consumer.unique().length >= feed.length, 'every event published')
  t.same(consumer.unique().map((message) => message.id), feed, 'each in feed order')
  t.equal(await consumer.streamMessages(), feed.length, 'each once')
})
