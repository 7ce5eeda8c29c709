/**
 * RabbitMQ (amqplib): each event to the durable topic exchange `TOPIC`, made when missing,
 * with the event type as its routing key (`pet.created`; bind `pet.*` or `#`), persistent,
 * its id as the AMQP `message-id`. A publish counts once RabbitMQ confirms it (publisher
 * confirms): routed to every bound queue, and written to disk for a durable one. An
 * exchange no queue is bound to drops what it gets, as RabbitMQ does: bind the queues first.
 */
import type { ChannelModel, ConfirmChannel } from 'amqplib'
import { amqpClient } from './clients.ts'
import { BatchAcks } from './acks.ts'
import { brokerAddress, within, type Destination, type DestinationOptions } from './destination.ts'
import { EVENT_STREAM_MESSAGE, fillIn } from '../../contract/event-stream.ts'
import { messageHeaders, templateValues, type StreamMessage } from './message.ts'

interface Open {
  connection: ChannelModel
  channel: ConfirmChannel
  /** Set once the connection or the channel closed or failed: the next publish opens another. */
  broken: Error | undefined
}

export class RabbitMqDestination implements Destination {
  readonly name: string
  readonly address: string
  #open: Promise<Open> | undefined

  constructor (private readonly options: DestinationOptions) {
    this.name = `amqp ${options.topic}`
    this.address = brokerAddress(options.url)
  }

  async #connect (): Promise<Open> {
    const amqp = amqpClient()
    const connection = await within(this.options.brokerTimeoutMs, 'connecting to RabbitMQ',
      amqp.connect(this.options.url, { timeout: this.options.brokerTimeoutMs, clientProperties: { connection_name: 'petstore-service event stream' } }))
    const open: Open = { connection, channel: undefined as unknown as ConfirmChannel, broken: undefined }
    // Without a listener, an 'error' would end the process.
    const lose = (error?: Error) => { open.broken ??= error ?? new Error('the connection to RabbitMQ closed') }
    connection.on('error', lose)
    connection.on('close', lose)
    try {
      open.channel = await connection.createConfirmChannel()
      open.channel.on('error', lose)
      open.channel.on('close', () => lose(new Error('the RabbitMQ channel closed')))
      await open.channel.assertExchange(this.options.topic, EVENT_STREAM_MESSAGE.amqp.exchangeType, { durable: true })
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
      if (open.broken !== undefined) throw open.broken
    } catch (error) {
      await this.close()
      return { confirmed: 0, error }
    }
    const { topic, source } = this.options
    const { amqp } = EVENT_STREAM_MESSAGE
    // Numbered by place: a channel's confirms are for it alone, and one batch is published at a time.
    const batch = new BatchAcks(0, messages.length)
    for (const [place, message] of messages.entries()) {
      const values = templateValues(message, topic, source)
      // content-type is AMQP's own property; the other headers are headers.
      const { 'content-type': contentType, ...headers } = messageHeaders(values)
      try {
        open.channel.publish(fillIn(amqp.exchange, values), fillIn(amqp.routingKey, values), Buffer.from(message.body), {
          persistent: amqp.persistent,
          messageId: fillIn(amqp['message-id'], values),
          type: fillIn(amqp.type, values),
          contentType,
          timestamp: Math.floor(Date.parse(message.time) / 1000),
          headers
        }, (error: unknown) => {
          batch.answer(place, error === null || error === undefined ? null : error instanceof Error ? error : new Error('RabbitMQ refused the message (nack)'))
        })
      } catch (error) {
        batch.sentOnly(place, error instanceof Error ? error : new Error(String(error)))
        break
      }
    }
    const outcome = await batch.confirmed(this.options.brokerTimeoutMs, 'RabbitMQ publisher confirms')
    if (outcome.confirmed < messages.length) await this.close()
    return outcome
  }

  async close (): Promise<void> {
    const open = this.#open
    this.#open = undefined
    const opened = await open?.then((open) => open, () => undefined)
    if (opened === undefined) return
    // A connection that hangs (a stalled network) is not waited for.
    await within(this.options.brokerTimeoutMs, 'closing the RabbitMQ connection', opened.connection.close()).catch(() => {
      // Not typed by amqplib: the socket under the connection, ended without a goodbye.
      (opened.connection as unknown as { connection?: { stream?: { destroy: () => void } } }).connection?.stream?.destroy()
    })
  }
}
