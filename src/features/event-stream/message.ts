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

type HeaderName = keyof typeof EVENT_STREAM_MESSAGE.headers
const HEADER_NAMES = Object.keys(EVENT_STREAM_MESSAGE.headers) as HeaderName[]

/** The headers of a message, as the document's `x-event-stream` declares them: its `templateValues` filled in. */
export function messageHeaders (values: ReturnType<typeof templateValues>): Record<HeaderName, string> {
  const headers: Partial<Record<HeaderName, string>> = {}
  for (const name of HEADER_NAMES) headers[name] = fillIn(EVENT_STREAM_MESSAGE.headers[name], values)
  return headers as Record<HeaderName, string>
}
