/**
 * NATS JetStream, the real server (docs/operating/event-streams.md): every event of a run
 * published once, in feed order, each message the feed's bytes with its id as `Nats-Msg-Id`
 * and the CloudEvents attributes; the stream made when missing; a stream that takes other
 * subjects refused in the log, the API answering all the same; a stream removed while it
 * publishes made again. On whichever database this run tests.
 */
import { connect, headers, type Msg } from '@nats-io/transport-node'
import { jetstreamManager } from '@nats-io/jetstream'
import t from 'tap'
import { refusal } from '../../../src/features/event-stream/jetstream.ts'
import { jetStreamConsumer, streamMessageCount, streamMessageIds, uniqueName } from '../../helpers/brokers.ts'
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

t.test('a stream removed while publishing: the refusal is logged, and the stream made again takes what follows', { skip }, async (t) => {
  const stream = uniqueName('TEST_')
  const topic = uniqueName('test.')
  const log = captureLog()
  const app = await publishing(t, NATS_URL, { streamName: stream, topic }, { logger: { level: 'info', stream: log.stream } })
  const nats = await connect({ servers: NATS_URL })
  const manager = await jetstreamManager(nats)
  t.teardown(async () => {
    await manager.streams.delete(stream).catch(() => {})
    await nats.close()
  })
  await addPets(app, 2)
  await until(async () => await streamMessageCount(NATS_URL, stream) === 2, 'the first two events published')
  await manager.streams.delete(stream)

  await addPets(app, 1)
  await until(() => log.lines.some((line) => line.msg.startsWith('event stream publishing stopped')), 'the log line')
  const stopped = log.lines.find((line) => line.msg.startsWith('event stream publishing stopped'))!
  t.equal(stopped.err.message, `no JetStream stream takes ${topic}.>`)
  await until(() => log.lines.some((line) => line.msg === 'event stream publishing resumed'), 'publishing resumed')
  const [third] = (await feedTexts(app, 3)).slice(2)
  t.same(await streamMessageIds(NATS_URL, stream, 1), [third!.id], 'the stream made again holds the event after those confirmed')
})

t.test('what JetStream answers a publish with: stored, or why not', async (t) => {
  const answer = (text: string, status?: [number, string]): Msg => ({
    headers: status === undefined ? undefined : headers(status[0], status[1]),
    json: () => JSON.parse(text),
    data: new TextEncoder().encode(text)
  }) as unknown as Msg
  t.equal(refusal(answer('{"stream":"PETSTORE_EVENTS","seq":7}'), 'events.>'), undefined)
  t.equal(refusal(answer('{"stream":"PETSTORE_EVENTS","seq":7,"duplicate":true}'), 'events.>'), undefined, 'a duplicate dropped is stored')
  t.same(refusal(answer('', [503, 'No Responders']), 'events.>'), new Error('no JetStream stream takes events.>'))
  t.same(refusal(answer('{"error":{"code":503,"err_code":10077,"description":"maximum messages exceeded"}}'), 'events.>'),
    new Error('JetStream refused a message on events.>: maximum messages exceeded (10077)'))
  t.same(refusal(answer('not json'), 'events.>'), new Error("JetStream's acknowledgement of events.> is not JSON"))
  t.same(refusal(answer('{"seq":7}'), 'events.>'), new Error("JetStream's acknowledgement of events.> names no stream"))
})
