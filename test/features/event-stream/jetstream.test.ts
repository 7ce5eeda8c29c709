/**
 * NATS JetStream, the real server (docs/operating/event-streams.md): every event of a run
 * published once, in feed order, each message the feed's bytes with its id as `Nats-Msg-Id`
 * and the CloudEvents attributes; the stream made when missing; a stream that takes other
 * subjects refused in the log, the API answering all the same. On whichever database this
 * run tests.
 */
import t from 'tap'
import { jetStreamConsumer, uniqueName } from '../../helpers/brokers.ts'
import { captureLog } from '../../helpers/log.ts'
import { NATS_URL, natsSkipReason } from '../../helpers/services.ts'
import { until } from '../../helpers/until.ts'
import { addPets } from '../../helpers/store.ts'
import { everyKindOfChange, expected, feedTexts, publishing, receivedAs } from './helpers.ts'

const skip = await natsSkipReason()

t.test('every event is published once, in feed order, as the feed has it', { skip }, async (t) => {
  const stream = uniqueName('TEST_')
  const topic = uniqueName('test.')
  const consumer = await jetStreamConsumer(t, { stream, topic })
  const app = await publishing(t, NATS_URL, { streamName: stream, topic, source: '/petstore-test' })
  const count = await everyKindOfChange(app)
  const feed = await feedTexts(app, count)
  await until(() => consumer.messages.length >= count, `${count} messages`)
  t.same(consumer.messages.map(receivedAs), feed.map(expected), 'the feed, in its order, byte for byte')
  const first = consumer.messages[0]!
  t.equal(first.subject, `${topic}.pet.created`)
  t.same(first.headers, {
    'Nats-Msg-Id': feed[0]!.id,
    'ce-specversion': '1.0',
    'ce-id': feed[0]!.id,
    'ce-type': 'pet.created',
    'ce-source': '/petstore-test',
    'ce-time': feed[0]!.timestamp,
    'content-type': 'application/json'
  })
  t.same([...new Set(consumer.messages.map((message) => message.subject))].sort(),
    ['order.cancelled', 'order.placed', 'order.updated', 'pet.created', 'pet.updated'].map((type) => `${topic}.${type}`))
  t.equal(await consumer.streamMessages(), count, 'each stored once')
  t.equal(app.eventStream?.destination, `nats ${stream}`)
  // The position moves once the broker has confirmed, a moment after the consumer has the message.
  await until(() => app.eventStream?.publisher.position === BigInt(feed.at(-1)!.sequence), 'the position past the last event')
})

t.test('a flow of creates is published in order, and counted', { skip }, async (t) => {
  const stream = uniqueName('TEST_')
  const topic = uniqueName('test.')
  const consumer = await jetStreamConsumer(t, { stream, topic, make: true })
  const app = await publishing(t, NATS_URL, { streamName: stream, topic, batchSize: 7 }, { metrics: true })
  await addPets(app, 40)
  const feed = await feedTexts(app, 40)
  await until(() => consumer.messages.length >= 40, '40 messages')
  t.same(consumer.messages.map((message) => message.id), feed.map((event) => event.id))
  // Counted once the position has moved, a moment after the consumer has the messages.
  let metrics = ''
  await until(async () => /^event_stream_published_total 40$/m.test(metrics = await app.prometheus!.registry.metrics()), 'all 40 counted')
  t.match(metrics, /^event_stream_backlog 0$/m)
  t.match(metrics, /^event_stream_lag_seconds 0$/m)
})

t.test('a stream that does not take the topic stops publishing, with a log line saying why, and the API answers', { skip }, async (t) => {
  const stream = uniqueName('TEST_')
  const topic = uniqueName('test.')
  await jetStreamConsumer(t, { stream, topic: uniqueName('other.'), make: true })
  const log = captureLog()
  const app = await publishing(t, NATS_URL.replace('nats://', 'nats://someone:secret-password@'), { streamName: stream, topic }, {
    logger: { level: 'info', stream: log.stream }, metrics: true
  })
  await addPets(app, 2)
  await until(() => log.lines.some((line) => line.msg.startsWith('event stream publishing stopped')), 'the log line')
  const stopped = log.lines.filter((line) => line.msg.startsWith('event stream publishing stopped'))
  t.equal(stopped.length, 1, 'said once, however many retries')
  t.match(stopped[0]!.err.message, `exists but does not take ${topic}.>`)
  t.equal(stopped[0]!.destination, 'nats://127.0.0.1:4222', 'the address without its credentials')
  t.notMatch(log.text(), 'secret-password', 'no password in the log')
  const list = await app.inject({ url: '/v1/pets', headers: { authorization: 'Bearer test-key-not-a-real-secret-0000' } })
  t.equal(list.statusCode, 200)
  const metrics = await app.prometheus!.registry.metrics()
  t.match(metrics, /^event_stream_backlog 2$/m)
  t.match(metrics, /^event_stream_lag_seconds \d/m)
})
