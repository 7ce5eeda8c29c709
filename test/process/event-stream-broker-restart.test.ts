/**
 * A broker restart under load, from the outside: the service as `npm start` runs it,
 * publishing to a NATS server of the test's own (JetStream, its store in a folder of the
 * test's), which is stopped while creates stream in and started again on the same port and
 * store, as an operator's restart does. The API answers every create meanwhile, and once
 * the broker is back the stream holds every event once, in feed order.
 */
import { join } from 'node:path'
import t from 'tap'
import { natsServer, streamMessageCount, streamMessageIds, uniqueName } from '../helpers/brokers.ts'
import { feedIdsAt } from '../helpers/events.ts'
import { startServer, streamCreates, tempDir } from '../helpers/process.ts'
import { natsServerSkipReason } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

const KEY = 'event-stream-restart-test-key-not-a-secret'

t.test('a NATS restart under load loses no event and stops no request', { skip: natsServerSkipReason(), timeout: 120_000 }, async (t) => {
  const dir = tempDir(t)
  const broker = await natsServer(t, join(dir, 'jetstream'))
  const stream = uniqueName('TEST_')
  const server = await startServer(t, {
    DATABASE_URL: join(dir, 'petstore.db'),
    PETSTORE_API_KEYS: KEY,
    RATE_LIMIT_MAX: '0',
    LOG_LEVEL: 'info',
    EVENT_STREAM_URL: broker.url,
    EVENT_STREAM_TOPIC: uniqueName('test.'),
    EVENT_STREAM_NAME: stream
  }, { built: true })

  const load = streamCreates(server.port, KEY)
  await until(async () => await streamMessageCount(broker.url, stream) >= 50, 'events published before the restart')
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
  await until(async () => await streamMessageCount(broker.url, stream) >= feed.length, 'every event published once the broker is back', 60_000)
  t.equal(await streamMessageCount(broker.url, stream), feed.length, 'none twice: JetStream dropped what was published again')
  t.same(await streamMessageIds(broker.url, stream, feed.length), feed, 'each once, in feed order')
  await until(() => server.output().includes('event stream publishing resumed'), 'the log saying publishing resumed')
})
