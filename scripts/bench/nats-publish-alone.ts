/**
 * What publishing costs the NATS client alone, beside the event stream's row: this process
 * publishes made-up events to a JetStream stream of its own, in batches as the publisher
 * sends them, each acknowledged, and prints its CPU time (user and system) per message as
 * JSON. Two ways: through the service's own destination (the document's headers on every
 * message), and with nats.js's bare publish and no headers, the least a stored message costs.
 * The bench runs it on the servers' core (./event-stream-cost.ts).
 *
 *   node --import tsx scripts/bench/nats-publish-alone.ts NATS_URL SECONDS
 */
import { randomBytes } from 'node:crypto'
import { connect, createInbox } from '@nats-io/transport-node'
import { jetstreamManager } from '@nats-io/jetstream'
import { BatchAcks } from '../../src/features/event-stream/acks.ts'
import { JetStreamDestination, refusal } from '../../src/features/event-stream/jetstream.ts'
import type { StreamMessage } from '../../src/features/event-stream/message.ts'

/** About the batches the publisher sends under a flow of creates. */
const BATCH = 150
const WARM_UP_MS = 1000
/** How long either way waits for a batch's acknowledgements. */
const ACK_TIMEOUT_MS = 10_000

const [url = 'nats://127.0.0.1:4222', seconds = '5'] = process.argv.slice(2)
const name = `BENCH_ALONE_${randomBytes(4).toString('hex')}`
const topic = `bench.${name.toLowerCase()}`

const run = randomBytes(8).toString('hex')
let made = 0
/**
 * A batch of events as the publisher reads them, a pet's creation each with its envelope;
 * made with little work, since it is counted with the publishing.
 */
function events (): StreamMessage[] {
  const time = new Date().toISOString()
  return Array.from({ length: BATCH }, () => {
    const sequence = ++made
    const id = `evt_${run}${sequence}`
    const body = `{"id":"${id}","type":"pet.created","timestamp":"${time}","sequence":${sequence},` +
      `"data":{"id":${sequence},"name":"Rex","category":{"id":1,"name":"Dogs"},"photoUrls":[],"tags":[],"status":"available"}}`
    return { id, type: 'pet.created', time, body }
  })
}

/** CPU microseconds per message of `publish`, run on batches for `ms` after a warm-up. */
async function perMessage (publish: (batch: StreamMessage[]) => Promise<void>, ms: number): Promise<number> {
  for (const until = Date.now() + WARM_UP_MS; Date.now() < until;) await publish(events())
  let sent = 0
  const before = process.cpuUsage()
  for (const until = Date.now() + ms; Date.now() < until; sent += BATCH) await publish(events())
  const used = process.cpuUsage(before)
  return (used.user + used.system) / sent
}

const destination = new JetStreamDestination({ url, topic, streamName: name, source: '/bench', brokerTimeoutMs: ACK_TIMEOUT_MS })
const nats = await connect({ servers: url })
try {
  const through = await perMessage(async (batch) => {
    const { confirmed, error } = await destination.publish(batch)
    if (confirmed < batch.length) throw error
  }, Number(seconds) * 1000)

  // The bare client: one inbox for the acknowledgements, each read as the destination reads it.
  const inbox = createInbox()
  let batch: BatchAcks | undefined
  let sent = 0
  nats.subscribe(`${inbox}.*`, {
    callback: (error, reply) => {
      if (error !== null) batch?.failAll(error)
      else batch?.answer(Number(reply.subject.slice(inbox.length + 1)), refusal(reply, `${topic}.>`) ?? null)
    }
  })
  const bare = await perMessage(async (messages) => {
    batch = new BatchAcks(sent, messages.length)
    for (const [place, message] of messages.entries()) nats.publish(`${topic}.${message.type}`, Buffer.from(message.body), { reply: `${inbox}.${sent + place}` })
    sent += messages.length
    const { confirmed, error } = await batch.confirmed(ACK_TIMEOUT_MS, 'NATS JetStream acknowledgements')
    if (confirmed < messages.length) throw error
  }, Number(seconds) * 1000)
  console.log(JSON.stringify({ through, bare }))
} finally {
  await destination.close()
  await (await jetstreamManager(nats)).streams.delete(name).catch(() => {})
  await nats.close()
}
