/**
 * A broker the events are published to, whichever it is: NATS JetStream (./jetstream.ts) or
 * RabbitMQ (./rabbitmq.ts), chosen by ./open.ts.
 */
import type { EventStreamSettings } from '../../config/settings.ts'
import type { StreamMessage } from './message.ts'

export interface Destination {
  /** What the stored position is kept under: the stream or exchange, never the address. */
  readonly name: string
  /** The broker's address for the log: scheme, host and port, never credentials. */
  readonly address: string
  /**
   * Publishes `messages` in their order, connecting first (and making the stream or exchange
   * when missing) if no connection is open. Resolves with how many of the first the broker
   * confirmed, all of them unless `error` says why the rest were not; a failure closes the
   * connection, and the next call opens another.
   */
  publish: (messages: readonly StreamMessage[]) => Promise<{ confirmed: number, error?: unknown }>
  close: () => Promise<void>
}

export interface DestinationOptions extends Pick<EventStreamSettings, 'topic' | 'streamName' | 'source' | 'brokerTimeoutMs'> {
  url: string
}

/** `url` without what is between `//` and `@` (a user, a password, a token), its path, nor its query. */
export function brokerAddress (url: string): string {
  const { protocol, host } = new URL(url)
  return `${protocol}//${host}`
}

/** Settles with `work`, or rejects once `ms` have passed (a broker that stopped answering). */
export async function within<T> (ms: number, what: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([work, timeout])
  } finally {
    clearTimeout(timer)
  }
}
