/**
 * A broker that goes away (docs/operating/event-streams.md#when-the-broker-is-down): through
 * a TCP proxy the test controls, its connections cut and new ones left unanswered, as a
 * broker restarting or a network failing. The API answers meanwhile, `/readyz` too; the
 * events wait, counted by `event_stream_backlog`; the log says once that publishing stopped
 * and once that it resumed; and a consumer that drops ids it has seen gets every event once,
 * in feed order. For NATS JetStream and RabbitMQ, on whichever database this run tests.
 */
import type { FastifyInstance } from 'fastify'
import t, { type Test } from 'tap'
import { AUTH } from '../../helpers/app.ts'
import { jetStreamConsumer, rabbitMqConsumer, uniqueName, type Consumer } from '../../helpers/brokers.ts'
import { faultProxy } from '../../helpers/fault-proxy.ts'
import { captureLog } from '../../helpers/log.ts'
import { NATS_URL, natsSkipReason, RABBITMQ_URL, rabbitMqSkipReason } from '../../helpers/services.ts'
import { addPets } from '../../helpers/store.ts'
import { until } from '../../helpers/until.ts'
import { feedTexts, publishing } from './helpers.ts'

async function outage (t: Test, url: string, consumer: Consumer, eventStream: { topic: string, streamName?: string }): Promise<void> {
  const proxy = await faultProxy(t, url)
  const log = captureLog()
  const app: FastifyInstance = await publishing(t, proxy.through(url), { ...eventStream, brokerTimeoutMs: 300 }, {
    logger: { level: 'info', stream: log.stream }, metrics: true
  })
  await addPets(app, 5)
  await until(() => consumer.unique().length === 5, 'the first 5 published')

  // Down: open connections reset, new ones never answered.
  proxy.stall()
  proxy.cut()
  const started = Date.now()
  await addPets(app, 20)
  t.ok(Date.now() - started < 5000, 'creates answered while the broker is down')
  t.equal((await app.inject({ url: '/readyz' })).statusCode, 200, 'ready all the same')
  await until(() => log.lines.some((line) => line.msg.startsWith('event stream publishing stopped')), 'the log line saying it stopped')
  // The 20 at least (the first 5 too, if the broker's confirmations were cut on their way),
  // once numbered (PostgreSQL numbers them a moment after the commit).
  let metrics = ''
  const backlog = () => Number(/^event_stream_backlog (\d+)$/m.exec(metrics)?.[1])
  await until(async () => { metrics = await app.prometheus!.registry.metrics(); return backlog() >= 20 }, 'the waiting events counted')
  t.ok(backlog() <= 25, `the waiting events counted (${backlog()})`)
  t.notMatch(metrics, /^event_stream_lag_seconds 0$/m, 'and how long they wait')

  proxy.pass()
  await until(() => consumer.unique().length === 25, 'every event, once the broker is back')
  await until(() => log.lines.some((line) => line.msg === 'event stream publishing resumed'), 'the log line saying it resumed')
  const feed = await feedTexts(app, 25)
  t.same(consumer.unique().map((message) => message.id), feed.map((event) => event.id), 'each once after dedup, in feed order')
  t.same(consumer.unique().map((message) => message.body), feed.map((event) => event.text), 'the feed\'s bytes')
  t.equal(log.lines.filter((line) => line.msg.startsWith('event stream publishing stopped')).length, 1, 'stopping said once')
  t.equal((await app.inject({ url: '/v1/pets?limit=1', headers: AUTH })).statusCode, 200)
}

t.test('NATS JetStream', { skip: await natsSkipReason() }, async (t) => {
  const streamName = uniqueName('TEST_')
  const topic = uniqueName('test.')
  const consumer = await jetStreamConsumer(t, { stream: streamName, topic, make: true })
  await outage(t, NATS_URL, consumer, { topic, streamName })
  t.equal(await consumer.streamMessages(), 25, 'JetStream kept each once')
})

t.test('RabbitMQ', { skip: await rabbitMqSkipReason() }, async (t) => {
  const exchange = uniqueName('test.events.')
  const consumer = await rabbitMqConsumer(t, { exchange })
  await outage(t, RABBITMQ_URL, consumer, { topic: exchange })
})
