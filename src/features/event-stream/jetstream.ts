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
 */
import type { NatsConnection } from '@nats-io/transport-node'
import type { JetStreamClient } from '@nats-io/jetstream'
import { jetStreamClient, natsClient } from './clients.ts'
import { brokerAddress, within, type Destination, type DestinationOptions } from './destination.ts'
import { EVENT_STREAM_MESSAGE, fillIn } from '../../contract/event-stream.ts'
import { messageHeaders, templateValues, type StreamMessage } from './message.ts'

interface Open {
  connection: NatsConnection
  js: JetStreamClient
}

export class JetStreamDestination implements Destination {
  readonly name: string
  readonly address: string
  #open: Promise<Open> | undefined

  constructor (private readonly options: DestinationOptions) {
    this.name = `nats ${options.streamName}`
    this.address = brokerAddress(options.url)
  }

  async #connect (): Promise<Open> {
    const { connect } = natsClient()
    const { jetstream, jetstreamManager } = jetStreamClient()
    const url = new URL(this.options.url)
    // Credentials are passed apart, so that the server's address the client reports never holds them.
    const user = decodeURIComponent(url.username)
    const password = decodeURIComponent(url.password)
    const connection = await connect({
      servers: `${url.protocol}//${url.host}`,
      name: 'petstore-service event stream',
      timeout: this.options.brokerTimeoutMs,
      reconnect: false,
      // A stack trace captured for every publish, in case its acknowledgement times out,
      // cost more than the rest of the publish; a timeout's error says what timed out.
      noAsyncTraces: true,
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
      return { connection, js: jetstream(connection, { timeout: this.options.brokerTimeoutMs }) }
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
    // All sent at once on the one connection, which JetStream stores in that order; each
    // acknowledged on its own.
    const acks = messages.map(async (message) => {
      const { topic, source } = this.options
      const values = templateValues(message, topic, source)
      const h = headers()
      for (const [name, value] of Object.entries(messageHeaders(message, topic, source))) h.set(name, value)
      return open.js.publish(fillIn(EVENT_STREAM_MESSAGE.nats.subject, values), message.body, {
        msgID: fillIn(EVENT_STREAM_MESSAGE.nats['Nats-Msg-Id'], values), headers: h, timeout: this.options.brokerTimeoutMs
      })
    })
    const results = await within(this.options.brokerTimeoutMs * 2, 'NATS JetStream acknowledgements', Promise.allSettled(acks))
      .catch((error: unknown) => [{ status: 'rejected' as const, reason: error }])
    const failed = results.findIndex((result) => result.status === 'rejected')
    if (failed === -1 && results.length === messages.length) return { confirmed: messages.length }
    await this.close()
    return { confirmed: Math.max(failed, 0), error: (results[failed] as PromiseRejectedResult | undefined)?.reason }
  }

  async close (): Promise<void> {
    const open = this.#open
    this.#open = undefined
    const connection = await open?.then((open) => open.connection, () => undefined)
    // A connection that hangs (a stalled network) is not waited for long.
    await within(this.options.brokerTimeoutMs, 'closing the NATS connection', connection?.close() ?? Promise.resolve()).catch(() => {})
  }
}
