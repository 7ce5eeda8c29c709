/**
 * examples/event-stream-consumer.mjs against the service publishing to the real NATS: it
 * prints every event once, in feed order, and a replay from a sequence prints only what
 * came after it, as docs/operating/event-streams.md says.
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import t from 'tap'
import { jetStreamConsumer, uniqueName } from '../helpers/brokers.ts'
import { CHILD_ENV } from '../helpers/process.ts'
import { NATS_URL, natsSkipReason } from '../helpers/services.ts'
import { addPets } from '../helpers/store.ts'
import { until } from '../helpers/until.ts'
import { build } from '../helpers/app.ts'
import { feedOf } from '../helpers/events.ts'

const run = promisify(execFile)
const example = new URL('../../examples/event-stream-consumer.mjs', import.meta.url).pathname

t.test('the consumer example prints each event once, in order, and replays from a sequence', { skip: await natsSkipReason() }, async (t) => {
  const stream = uniqueName('TEST_')
  const topic = uniqueName('test.')
  // Deletes the stream (and the example's consumers with it) when the test ends.
  const watch = await jetStreamConsumer(t, { stream, topic, make: true })
  const app = await build(t, { eventStream: { url: NATS_URL, streamName: stream, topic } })
  await addPets(app, 3)
  const feed = await feedOf(app, 3)
  await until(() => watch.messages.length === 3, 'published')
  const env = { ...CHILD_ENV, NATS_URL, EVENT_STREAM_NAME: stream }
  const lines = feed.map((event) => `${String(event.sequence)} ${event.type} ${event.id}`)

  const all = await run(process.execPath, [example], { env: { ...env, CONSUMER: 'all', COUNT: '3' }, timeout: 30_000 })
  t.equal(all.stdout, `${lines.join('\n')}\n`)
  const replay = await run(process.execPath, [example], { env: { ...env, CONSUMER: 'replay', COUNT: '2', AFTER_SEQUENCE: String(feed[0]!.sequence) }, timeout: 30_000 })
  t.equal(replay.stdout, `${lines.slice(1).join('\n')}\n`)
})
