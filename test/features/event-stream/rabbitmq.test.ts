/**
 * RabbitMQ, the real server (docs/operating/event-streams.md): every event of a run
 * published once, in feed order, to a durable topic exchange with the event type as the
 * routing key, persistent, the feed's bytes with the event id as `message-id` and the
 * CloudEvents attributes as headers; the exchange made when missing; an exchange of another
 * type refused in the log, the API answering all the same. On whichever database this run
 * tests.
 */
import amqp from 'amqplib'
import t from 'tap'
import { rabbitMqConsumer, uniqueName } from '../../helpers/brokers.ts'
import { captureLog } from '../../helpers/log.ts'
import { RABBITMQ_URL, rabbitMqSkipReason } from '../../helpers/services.ts'
import { addPets } from '../../helpers/store.ts'
import { until } from '../../helpers/until.ts'
import { AUTH } from '../../helpers/app.ts'
import { everyKindOfChange, expected, feedTexts, publishing, receivedAs } from './helpers.ts'

const skip = await rabbitMqSkipReason()

t.test('every event is published once, in feed order, as the feed has it', { skip }, async (t) => {
  const exchange = uniqueName('test.events.')
  const consumer = await rabbitMqConsumer(t, { exchange })
  const app = await publishing(t, RABBITMQ_URL, { topic: exchange, source: '/petstore-test' })
  const count = await everyKindOfChange(app)
  const feed = await feedTexts(app, count)
  await until(() => consumer.messages.length >= count, `${count} messages`)
  t.same(consumer.messages.map(receivedAs), feed.map(expected), 'the feed, in its order, byte for byte')
  t.same(consumer.messages.map((message) => message.subject), feed.map((event) => event.type), 'the routing key is the type')
  t.same(consumer.messages[0]!.headers, {
    'ce-specversion': '1.0',
    'ce-id': feed[0]!.id,
    'ce-type': 'pet.created',
    'ce-source': '/petstore-test',
    'ce-time': feed[0]!.timestamp
  })
  t.equal(app.eventStream?.destination, `amqp ${exchange}`)
  await until(() => app.eventStream?.publisher.position === BigInt(feed.at(-1)!.sequence), 'the position past the last event')
})

t.test('messages are persistent, typed, and the exchange is made durable when missing', { skip }, async (t) => {
  const exchange = uniqueName('test.events.')
  const app = await publishing(t, RABBITMQ_URL, { topic: exchange })
  const connection = await amqp.connect(RABBITMQ_URL)
  const channel = await connection.createChannel()
  t.teardown(async () => {
    await channel.deleteExchange(exchange).catch(() => {})
    await connection.close()
  })
  // Made by the service at its first publish: wait for it, then bind a queue.
  await addPets(app, 1)
  await until(async () => app.eventStream?.publisher.position === 1n, 'the first event published')
  await channel.checkExchange(exchange)
  const { queue } = await channel.assertQueue('', { exclusive: true })
  await channel.bindQueue(queue, exchange, 'pet.*')
  await addPets(app, 1)
  let got: amqp.GetMessage | false = false
  await until(async () => (got = await channel.get(queue, { noAck: true })) !== false, 'the second event in the queue')
  const message = got as unknown as amqp.GetMessage
  t.equal(message.properties.deliveryMode, 2, 'persistent')
  t.equal(message.properties.contentType, 'application/json')
  t.equal(message.properties.type, 'pet.created')
  t.match(message.properties.messageId, /^evt_/)
  t.type(message.properties.timestamp, 'number')
})

t.test('an exchange of another type stops publishing, with a log line saying why, and the API answers', { skip }, async (t) => {
  const exchange = uniqueName('test.events.')
  const connection = await amqp.connect(RABBITMQ_URL)
  const channel = await connection.createChannel()
  t.teardown(async () => {
    await channel.deleteExchange(exchange).catch(() => {})
    await connection.close()
  })
  await channel.assertExchange(exchange, 'fanout', { durable: true })
  const log = captureLog()
  const app = await publishing(t, RABBITMQ_URL, { topic: exchange }, { logger: { level: 'info', stream: log.stream } })
  await addPets(app, 1)
  await until(() => log.lines.some((line) => line.msg.startsWith('event stream publishing stopped')), 'the log line')
  const stopped = log.lines.find((line) => line.msg.startsWith('event stream publishing stopped'))!
  t.match(stopped.err.message, /PRECONDITION_FAILED/)
  t.equal(stopped.destination, 'amqp://127.0.0.1:5672', 'the address without its credentials')
  t.notMatch(log.text(), 'guest:guest', 'no credentials in the log')
  t.equal((await app.inject({ url: '/v1/pets', headers: AUTH })).statusCode, 200)
  t.equal(log.lines.filter((line) => line.msg.startsWith('event stream publishing stopped')).length, 1, 'said once')
})

t.test('a broker that refuses the credentials stops publishing, and the log names no password', { skip }, async (t) => {
  const log = captureLog()
  const url = RABBITMQ_URL.replace(/\/\/[^@]*@/, '//guest:not-the-password@')
  const app = await publishing(t, url, { topic: uniqueName('test.events.') }, { logger: { level: 'info', stream: log.stream } })
  await addPets(app, 1)
  await until(() => log.lines.some((line) => line.msg.startsWith('event stream publishing stopped')), 'the log line')
  t.notMatch(log.text(), 'not-the-password')
})
