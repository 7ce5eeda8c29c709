/**
 * The destination `EVENT_STREAM_URL` names, by its scheme. Each kind is loaded only when
 * configured, with its client library: a service without an event stream loads neither.
 */
import type { Destination, DestinationOptions } from './destination.ts'

export async function openDestination (options: DestinationOptions): Promise<Destination> {
  const scheme = new URL(options.url).protocol
  if (scheme === 'nats:' || scheme === 'tls:') return new (await import('./jetstream.ts')).JetStreamDestination(options)
  if (scheme === 'amqp:' || scheme === 'amqps:') return new (await import('./rabbitmq.ts')).RabbitMqDestination(options)
  throw new Error(`EVENT_STREAM_URL: ${scheme} is neither nats:, tls: (NATS JetStream) nor amqp:, amqps: (RabbitMQ)`)
}
