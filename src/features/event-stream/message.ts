/**
 * What a broker receives of an event: its envelope as the feed and webhooks carry it, byte
 * for byte, and headers that name it, so a consumer can drop a redelivery by its id and
 * standard tooling can route it: the CloudEvents binary mode's attributes
 * (https://github.com/cloudevents/spec/blob/v1.0.2/cloudevents/spec.md), `ce-` prefixed as
 * its HTTP and NATS bindings write them.
 */

export interface StreamMessage {
  /** The event id (`evt_...`): the same in the feed, in `webhook-id` and here. */
  id: string
  type: string
  /** When the change committed (RFC 3339): the envelope's `timestamp`. */
  time: string
  /** The envelope, serialized as the feed serializes it. */
  body: string
}

/** The headers the document's `x-event-stream` declares (../../contract/event-stream.ts holds the two together). */
export const MESSAGE_HEADERS = ['ce-specversion', 'ce-id', 'ce-type', 'ce-source', 'ce-time', 'content-type'] as const

export function messageHeaders (message: StreamMessage, source: string): Record<typeof MESSAGE_HEADERS[number], string> {
  return {
    'ce-specversion': '1.0',
    'ce-id': message.id,
    'ce-type': message.type,
    'ce-source': source,
    'ce-time': message.time,
    'content-type': 'application/json'
  }
}
