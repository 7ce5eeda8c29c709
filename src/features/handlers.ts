/**
 * Every operation's handler, keyed by operationId. The type requires one for each
 * operation of generated/openapi.ts; the start checks the same against spec/openapi.yaml.
 */
import type { Handlers } from '../contract/handler-types.ts'
import { categoryHandlers } from './categories/handlers.ts'
import { eventHandlers } from './events/handlers.ts'
import { orderHandlers } from './orders/handlers.ts'
import { petHandlers } from './pets/handlers.ts'
import { webhookHandlers } from './webhooks/handlers.ts'

export const handlers: Handlers = {
  ...petHandlers,
  ...categoryHandlers,
  ...orderHandlers,
  ...eventHandlers,
  ...webhookHandlers
}
