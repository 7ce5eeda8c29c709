/**
 * Every operation's handler, keyed by operationId. The type requires one for each
 * operation of generated/openapi.ts; the start checks the same against spec/openapi.yaml.
 */
import type { Handlers } from '../openapi/handlers.ts'
import { orderHandlers } from './orders.ts'
import { petHandlers } from './pets.ts'

export const handlers: Handlers = {
  ...petHandlers,
  ...orderHandlers
}
