/**
 * The event stream's messages as the document declares them (its top-level
 * `x-event-stream`), and as ../features/event-stream/ makes them, from this one object: each
 * value a text with `{id}`, `{type}`, `{timestamp}` (the envelope's), `{topic}`
 * (`EVENT_STREAM_TOPIC`) or `{source}` (`EVENT_STREAM_SOURCE`) filled in. A document that
 * declares anything else (another header, another subject) is refused at start, since the
 * service would not honour it; one that declares no `x-event-stream` says nothing of it.
 * The event types and their envelopes are the document's `webhooks` (./webhooks.ts).
 */
import type { ApiDocument, Json } from './document.ts'

export const EVENT_STREAM_MESSAGE = {
  body: 'the envelope of its type, as the webhook request body and the feed carry it, byte for byte',
  nats: { subject: '{topic}.{type}', 'Nats-Msg-Id': '{id}' },
  amqp: { exchange: '{topic}', exchangeType: 'topic', routingKey: '{type}', 'message-id': '{id}', type: '{type}', persistent: true },
  headers: {
    'ce-specversion': '1.0',
    'ce-id': '{id}',
    'ce-type': '{type}',
    'ce-source': '{source}',
    'ce-time': '{timestamp}',
    'content-type': 'application/json'
  }
} as const

type TemplateValues = Readonly<Record<'id' | 'type' | 'timestamp' | 'topic' | 'source', string>>

/**
 * Each template split once into its texts and the names between them (odd places), since
 * every message of the stream fills in the same few.
 */
const split = new Map<string, string[]>()

/** `template` with each `{name}` replaced by `values[name]`. */
export function fillIn (template: string, values: TemplateValues): string {
  let parts = split.get(template)
  if (parts === undefined) {
    parts = template.split(/\{(id|type|timestamp|topic|source)\}/)
    split.set(template, parts)
  }
  let filled = parts[0]!
  for (let i = 1; i < parts.length; i += 2) filled += values[parts[i] as keyof TemplateValues] + parts[i + 1]!
  return filled
}

/** Where `declared` differs from `made`, by the path of each difference. */
function differences (declared: Json | undefined, made: unknown, path: string): string[] {
  if (made !== null && typeof made === 'object') {
    if (declared === null || typeof declared !== 'object' || Array.isArray(declared)) return [`${path}: must be an object`]
    const keys = new Set([...Object.keys(made), ...Object.keys(declared)])
    return [...keys].flatMap((key) => differences((declared as Record<string, Json>)[key], (made as Record<string, unknown>)[key], `${path}.${key}`))
  }
  if (declared === made) return []
  if (made === undefined) return [`${path}: the service publishes no such thing`]
  return [`${path}: the service publishes ${JSON.stringify(made)}, not ${JSON.stringify(declared)}`]
}

export function eventStreamProblems (document: ApiDocument): string[] {
  const declared = document.document['x-event-stream']
  if (declared === undefined) return []
  if (declared === null || typeof declared !== 'object' || Array.isArray(declared)) return ['x-event-stream: must be an object']
  const { description, ...rest } = declared
  if (description !== undefined && typeof description !== 'string') return ['x-event-stream.description: must be text']
  return differences(rest, EVENT_STREAM_MESSAGE, 'x-event-stream')
}
