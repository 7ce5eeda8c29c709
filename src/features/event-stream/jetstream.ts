/**
 * NATS JetStream (nats.js, `@nats-io/transport-node` and `@nats-io/jetstream`): each event
 * on the subject `TOPIC.<type>` (`petstore.events.pet.created`) of the stream `streamName`,
 * made when missing to take `TOPIC.>`. `Nats-Msg-Id` is the event id, so the stream drops a
 * message published again within its duplicate window (after a crash between a publish and
 * the position's update). A publish counts once JetStream acknowledges it: stored.
 *
 * The client's own reconnecting is off: a publish that fails closes the connection, and the
 * publisher retries with backoff on a new one, so a message is never left waiting in the
 * client's buffer while the position has moved on without it.
 *
 * A batch is published as JetStream's asynchronous publishers do (the Go client's
 * PublishAsync): each message with a reply subject of its own under one inbox, whose one
 * subscription takes every acknowledgement, and one deadline for the batch. nats.js's
 * `js.publish` makes a request of each message instead (an inbox entry, a timer, promises
 * and a stack trace each): in a profile under a flow of creates, a large part of what
 * publishing cost the service (docs/operating/event-streams.md#what-it-costs).
 */
import type { Msg, NatsConnection } from '@nats-io/transport-node'
import { jetStreamClient, natsClient } from './clients.ts'
import { BatchAcks } from './acks.ts'
import { brokerAddress, within, type Destination, type DestinationOptions } from './destination.ts'
import { EVENT_STREAM_MESSAGE, fillIn } from '../../contract/event-stream.ts'
import { messageHeaders, templateValues, type StreamMessage } from './message.ts'

interface Open {
  connection: NatsConnection
  /** Each publish's acknowledgement comes to `${inbox}.${n}`. */
  inbox: string
  /** The batch whose acknowledgements are awaited (one at a time: the publisher awaits each). */
  batch: BatchAcks | undefined
}

/** Why JetStream did not store the message `reply` answers: undefined when it did. */
export function refusal (reply: Msg, subject: string): Error | undefined {
  if (reply.headers?.hasError === true) {
    return new Error(reply.headers.code === 503 ? `no JetStream stream takes ${subject}` : `NATS answered ${reply.headers.code} ${reply.headers.description}`)
  }
  let ack: { stream?: string, error?: { code?: number, err_code?: number, description?: string } }
  try {
    ack = reply.json()
  } catch {
    return new Error(`JetStream's acknowledgement of ${subject} is not JSON`)
  }
  if (ack.error !== undefined) return new Error(`JetStream refused a message on ${subject}: ${ack.error.description ?? 'no reason given'} (${ack.error.err_code ?? ack.error.code})`)
  if (typeof ack.stream !== 'string' || ack.stream === '') return new Error(`JetStream's acknowledgement of ${subject} names no stream`)
  return undefined
}

export class JetStreamDestination implements Destination {
  readonly name: string
  readonly address: string
  #open: Promise<Open> | undefined
  /** Publishes sent on this destination: the next one's `n`. */
  #sent = 0

  constructor (private readonly options: DestinationOptions) {
    this.name = `nats ${options.streamName}`
    this.address = brokerAddress(options.url)
  }

  async #connect (): Promise<Open> {
    const { connect, createInbox } = natsClient()
    const { jetstreamManager } = jetStreamClient()
    const url = new URL(this.options.url)
    // Credentials are passed apart, so that the server's address the client reports never holds them.
    const user = decodeURIComponent(url.username)
    const password = decodeURIComponent(url.password)
    const connection = await connect({
      servers: `${url.protocol}//${url.host}`,
      name: 'petstore-service event stream',
      timeout: this.options.brokerTimeoutMs,
      reconnect: false,
      ...(user !== '' && password === '' ? { token: user } : {}),
      ...(user !== '' && password !== '' ? { user, pass: password } : {})
    })
    try {
      const manager = await jetstreamManager(connection, { timeout: this.options.brokerTimeoutMs })
      const subjects = `${this.options.topic}.>`
      const info = await manager.streams.info(this.options.streamName).catch((error: Error) => {
        if (error.name === 'StreamNotFoundError') return undefined
        throw error
      })
      if (info === undefined) {
        await manager.streams.add({ name: this.options.streamName, subjects: [subjects] })
      } else if (!info.config.subjects.includes(subjects)) {
        throw new Error(`the JetStream stream ${this.options.streamName} exists but does not take ${subjects} (it takes ${info.config.subjects.join(', ')}); ` +
          'add that subject to it, or set EVENT_STREAM_NAME or EVENT_STREAM_TOPIC')
      }
      const open: Open = { connection, inbox: createInbox(), batch: undefined }
      connection.subscribe(`${open.inbox}.*`, {
        callback: (error, reply) => {
          if (error !== null) open.batch?.failAll(error)
          else open.batch?.answer(Number(reply.subject.slice(open.inbox.length + 1)), refusal(reply, `${this.options.topic}.>`) ?? null)
        }
      })
      return open
    } catch (error) {
      await connection.close().catch(() => {})
      throw error
    }
  }

  async publish (messages: readonly StreamMessage[]): Promise<{ confirmed: number, error?: unknown }> {
    let open: Open
    try {
      this.#open ??= this.#connect()
      open = await this.#open
      if (open.connection.isClosed()) throw new Error('the connection to NATS closed')
    } catch (error) {
      await this.close()
      return { confirmed: 0, error }
    }
    const { headers } = natsClient()
    const { topic, source } = this.options
    // All sent at once on the one connection, which JetStream stores in that order; each
    // acknowledged on its own.
    const batch = new BatchAcks(this.#sent, messages.length)
    this.#sent += messages.length
    open.batch = batch
    for (const [place, message] of messages.entries()) {
      const values = templateValues(message, topic, source)
      const h = headers()
      const named = messageHeaders(values)
      // append, not set: each name comes once into new headers, and set first looks for the
      // name to replace, which allocated more than the rest of a publish.
      for (const name in named) h.append(name, named[name as keyof typeof named])
      h.append('Nats-Msg-Id', fillIn(EVENT_STREAM_MESSAGE.nats['Nats-Msg-Id'], values))
      try {
        // A Buffer: Node writes a short string into its shared pool, where the client's own
        // encoding of a string would allocate a new array for each message.
        open.connection.publish(fillIn(EVENT_STREAM_MESSAGE.nats.subject, values), Buffer.from(message.body), { headers: h, reply: `${open.inbox}.${batch.first + place}` })
      } catch (error) {
        batch.sentOnly(place, error instanceof Error ? error : new Error(String(error)))
        break
      }
    }
    const outcome = await batch.confirmed(this.options.brokerTimeoutMs, 'NATS JetStream acknowledgements')
    // Those not acknowledged in time are not waited for any more.
    open.batch = undefined
    if (outcome.confirmed < messages.length) await this.close()
    return outcome
  }

  async close (): Promise<void> {
    const open = this.#open
    this.#open = undefined
    const connection = await open?.then((open) => open.connection, () => undefined)
    // A connection that hangs (a stalled network) is not waited for long.
    await within(this.options.brokerTimeoutMs, 'closing the NATS connection', connection?.close() ?? Promise.resolve()).catch(() => {})
  }
}
