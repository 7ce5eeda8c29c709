/**
 * Without `EVENT_STREAM_URL`, nothing of the event stream runs and no broker's client is
 * loaded; with it, a broker that does not answer never stops the start, nor any request.
 */
import { createRequire } from 'node:module'
import t from 'tap'
import { AUTH, build } from '../../helpers/app.ts'
import { captureLog } from '../../helpers/log.ts'
import { until } from '../../helpers/until.ts'
import { addPets } from '../../helpers/store.ts'

const loaded = () => Object.keys(createRequire(import.meta.url).cache).filter((path) => /node_modules\/(amqplib|@nats-io)\//.test(path))

t.test('unset: off, and neither client loaded', async (t) => {
  const app = await build(t)
  await addPets(app, 1)
  t.equal(app.eventStream, undefined)
  t.same(loaded(), [])
  t.equal(await app.db.selectFrom('event_stream_positions').select('destination').executeTakeFirst(), undefined, 'no position kept')
})

for (const [name, url] of [['NATS', 'nats://127.0.0.1:1'], ['RabbitMQ', 'amqp://guest:guest@127.0.0.1:1']] as const) {
  t.test(`${name} that does not answer: the start and the API go on, the events wait`, async (t) => {
    const log = captureLog()
    const app = await build(t, { eventStream: { url, retryMinMs: 20, retryMaxMs: 100 }, logger: { level: 'info', stream: log.stream } })
    await addPets(app, 2)
    t.equal((await app.inject({ url: '/v1/pets', headers: AUTH })).statusCode, 200)
    t.equal((await app.inject({ url: '/readyz' })).statusCode, 200)
    await until(() => log.lines.some((line) => line.msg.startsWith('event stream publishing stopped')), 'the log line')
    t.match(log.lines.find((line) => line.msg.startsWith('event stream publishing stopped'))!.destination, /^(nats|amqp):\/\/127\.0\.0\.1:1$/)
    t.equal(app.eventStream?.publisher.position, 0n, 'nothing published')
    t.not(loaded().length, 0, 'its client loaded once configured')
  })
}
