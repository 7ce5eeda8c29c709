/**
 * What a broker receives of an event: its envelope as the feed and webhooks carry it, byte
 * for byte, and headers that name it, so a consumer can drop a redelivery by its id and
 * standard tooling can route it: the CloudEvents binary mode's attributes
 * (https://github.com/cloudevents/spec/blob/v1.0.2/cloudevents/spec.md), `ce-` prefixed as
 * its HTTP and NATS bindings write them. What they are is declared once, with the document's
 * `x-event-stream` (../../contract/event-stream.ts).
 */
import { EVENT_STREAM_MESSAGE, fillIn } from '../../contract/event-stream.ts'

export interface StreamMessage {
  /** The event id (`evt_...`): the same in the feed, in `webhook-id` and here. */
  id: string
  type: string
  /** When the change committed (RFC 3339): the envelope's `timestamp`. */
  time: string
  /** The envelope, serialized as the feed serializes it. */
  body: string
}

/** What a template of `x-event-stream` is filled in with, for `message`. */
export function templateValues (message: StreamMessage, topic: string, source: string) {
  return { id: message.id, type: message.type, timestamp: message.time, topic, source }
}

/** The headers of `message`, as the document's `x-event-stream` declares them. */
export function messageHeaders (message: StreamMessage, topic: string, source: string): Record<keyof typeof EVENT_STREAM_MESSAGE.headers, string> {
  const values = templateValues(message, topic, source)
  return Object.fromEntries(Object.entries(EVENT_STREAM_MESSAGE.headers).map(([name, template]) => [name, fillIn(template, values)])) as
    Record<keyof typeof EVENT_STREAM_MESSAGE.headers, string>
}
