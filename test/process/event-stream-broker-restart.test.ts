/**
 * A broker restart under load, from the outside: the service as `npm start` runs it,
 * publishing to a broker of the test's own (a NATS server with JetStream, or a RabbitMQ
 * node, keeping what it stores in a folder of the test's), which is stopped while creates
 * stream in and started again on the same port and store, as an operator's restart does.
 * The API answers every create meanwhile, and once the broker is back it holds every event:
 * once in JetStream's stream, and in a durable RabbitMQ queue once its redeliveries are
 * dropped by their message id, in feed order.
 */
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { dedup, drainRabbitMqQueue, durableRabbitMqQueue, natsServer, queueMessageCount, rabbitMqServer, streamMessageCount, streamMessageIds, uniqueName, type OwnBroker, type Received } from '../helpers/brokers.ts'
import { feedIdsAt } from '../helpers/events.ts'
import { startServer, streamCreates, tempDir } from '../helpers/process.ts'
import { natsServerSkipReason, rabbitMqServerSkipReason } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

const KEY = 'event-stream-restart-test-key-not-a-secret'

/**
 * The service publishing to `broker` (`EVENT_STREAM_*` from `settings`), under a flow of
 * creates while the broker is stopped, once `published` says 50 events reached it, and
 * started again. Every create must be answered 201; the feed's ids afterwards, one a create.
 */
async function restartUnderLoad (t: Test, dir: string, broker: OwnBroker, settings: Record<string, string>, published: () => Promise<number>) {
  const server = await startServer(t, {
    DATABASE_URL: join(dir, 'petstore.db'),
    PETSTORE_API_KEYS: KEY,
    RATE_LIMIT_MAX: '0',
    LOG_LEVEL: 'info',
    EVENT_STREAM_URL: broker.url,
    ...settings
  }, { built: true })

  const load = streamCreates(server.port, KEY)
  await until(async () => await published() >= 50, 'events published before the restart')
  await broker.stop()
  const before = load.outcomes.length
  await until(() => load.outcomes.length >= before + 100, '100 creates answered while the broker is down')
  await until(() => server.output().includes('event stream publishing stopped'), 'the log saying publishing stopped')
  await broker.start()
  await until(() => load.outcomes.length >= before + 200, '100 creates more once it is back')
  await load.stop()
  t.same(load.outcomes.filter((outcome) => outcome.status !== 201), [], 'every create answered 201, the broker down or not')

  const feed = await feedIdsAt(server.base, KEY)
  t.equal(feed.length, load.outcomes.length, 'an event for each create')
  return { server, feed }
}

t.test('a NATS restart under load loses no event and stops no request', { skip: natsServerSkipReason(), timeout: 120_000 }, async (t) => {
  const dir = tempDir(t)
  const broker = await natsServer(t, join(dir, 'jetstream'))
  const stream = uniqueName('TEST_')
  const { server, feed } = await restartUnderLoad(t, dir, broker, { EVENT_STREAM_TOPIC: uniqueName('test.'), EVENT_STREAM_NAME: stream },
    async () => streamMessageCount(broker.url, stream))

  await until(async () => await streamMessageCount(broker.url, stream) >= feed.length, 'every event published once the broker is back', 60_000)
  t.equal(await streamMessageCount(broker.url, stream), feed.length, 'none twice: JetStream dropped what was published again')
  t.same(await streamMessageIds(broker.url, stream, feed.length), feed, 'each once, in feed order')
  await until(() => server.output().includes('event stream publishing resumed'), 'the log saying publishing resumed')
})

t.test('a RabbitMQ restart under load loses no event and stops no request', { skip: rabbitMqServerSkipReason(), timeout: 180_000 }, async (t) => {
  const dir = tempDir(t)
  const broker = await rabbitMqServer(t, join(dir, 'rabbitmq'))
  const exchange = uniqueName('test.')
  // Bound before the first publish: RabbitMQ drops what no queue takes.
  const queue = await durableRabbitMqQueue(broker.url, exchange)
  const { server, feed } = await restartUnderLoad(t, dir, broker, { EVENT_STREAM_TOPIC: exchange }, async () => queueMessageCount(broker.url, queue))

  const received: Received[] = []
  await until(async () => {
    received.push(...await drainRabbitMqQueue(broker.url, queue))
    return dedup(received).length >= feed.length
  }, 'every event published once the broker is back', 60_000)
  t.same(dedup(received).map((message) => message.id), feed, 'each at least once, in feed order once redeliveries are dropped')
  await until(() => server.output().includes('event stream publishing resumed'), 'the log saying publishing resumed')
})
