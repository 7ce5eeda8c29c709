/**
 * The events the service emits: one per type the document declares under `webhooks`
 * (OpenAPI 3.1), whose request body is that type's envelope. The start holds the two to
 * each other (../../contract/webhooks.ts): a type emitted here and not declared, or declared and never
 * emitted, stops it.
 */
import type { components, webhooks } from '../../../generated/openapi.ts'

export type EventType = keyof webhooks & components['schemas']['EventType']

/**
 * Every type emitted, and whether its envelope carries `previous` (the changed fields, as
 * they were): the `*.updated` types do, the others never.
 */
export const EMITTED_EVENTS = {
  'pet.created': { previous: false },
  'pet.updated': { previous: true },
  'category.created': { previous: false },
  'category.updated': { previous: true },
  'category.deleted': { previous: false },
  'order.placed': { previous: false },
  'order.updated': { previous: true },
  'order.cancelled': { previous: false }
} as const satisfies Record<EventType, { previous: boolean }>
