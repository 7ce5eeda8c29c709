// A consumer of the service's event stream on NATS JetStream
// (docs/operating/event-streams.md): every event once, in feed order, whatever the broker
// redelivers. Run it where `@nats-io/transport-node` and `@nats-io/jetstream` are installed
// (this repository has them):
//
//   NATS_URL=nats://127.0.0.1:4222 node examples/event-stream-consumer.mjs
//
// Settings, all optional: NATS_URL, EVENT_STREAM_NAME (the service's stream,
// PETSTORE_EVENTS), CONSUMER (the durable consumer's name, which JetStream keeps its place
// for), AFTER_SEQUENCE (replay: skip the events at or below this `sequence`), COUNT (stop
// after that many events).
import { connect } from '@nats-io/transport-node'
import { AckPolicy, DeliverPolicy, jetstream, jetstreamManager } from '@nats-io/jetstream'

const stream = process.env.EVENT_STREAM_NAME ?? 'PETSTORE_EVENTS'
const durable = process.env.CONSUMER ?? 'petstore-example'
const count = process.env.COUNT === undefined ? Infinity : Number(process.env.COUNT)

const connection = await connect({ servers: process.env.NATS_URL ?? 'nats://127.0.0.1:4222' })
const manager = await jetstreamManager(connection)
// A durable consumer: after a restart it goes on from the last message acknowledged.
await manager.consumers.add(stream, { durable_name: durable, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All })
const consumer = await jetstream(connection).consumers.get(stream, durable)

// The events' `sequence` only grows, in the order the service publishes them: an event at
// or below the last one handled is a redelivery (or before the replay's start), and is
// dropped. Keep `last` where your own changes are stored, in the same transaction, to
// survive a restart of this consumer too.
let last = BigInt(process.env.AFTER_SEQUENCE ?? '0')
let handled = 0
const messages = await consumer.consume()
for await (const message of messages) {
  const event = message.json()
  const sequence = BigInt(event.sequence)
  if (sequence > last) {
    // Handle the event here: `message.headers.get('ce-type')` routes it without parsing.
    console.log(`${event.sequence} ${event.type} ${event.id}`)
    last = sequence
    handled++
  }
  message.ack()
  if (handled >= count) break
}
await connection.drain()
