/**
 * The store-order operations: listOrders, placeOrder, cancelOrder. Experimental and beta
 * (their `x-stability` in the document); everything around them comes from the document,
 * as for pets.
 */
import { ApiError } from '../../http/error-codes.ts'
import type { Handlers } from '../../contract/handler-types.ts'
import { decodeCursor, linkedPage } from '../../contract/paging.ts'
import * as orders from './repository.ts'

export const orderHandlers = {
  async listOrders (request, reply) {
    const { cursor } = request.query
    // AJV has applied the document's default, so `limit` is always there.
    const limit = request.query.limit!
    const afterId = cursor === undefined ? 0 : decodeCursor(cursor)
    const page = await orders.listOrders(request.db, { limit, afterId })
    return linkedPage(reply, request.routeOptions.url!, { limit }, page)
  },

  async placeOrder (request, reply) {
    const order = await orders.placeOrder(request.db, request.body)
    if (order === undefined) {
      throw new ApiError('invalid_request', `body/petId must name an existing pet; there is no pet ${request.body.petId}`)
    }
    // Returned, not sent: an idempotent create keeps the answer before it goes out.
    reply.code(201)
    return order
  },

  async cancelOrder (request, reply) {
    const { orderId } = request.params
    const outcome = await orders.cancelOrder(request.db, orderId)
    if (outcome === 'missing') throw new ApiError('not_found', `Order ${orderId} not found`)
    if (outcome === 'complete') throw new ApiError('conflict', `Order ${orderId} is complete (shipped) and can no longer be cancelled`)
    return reply.code(204).send()
  }
} satisfies Pick<Handlers, 'listOrders' | 'placeOrder' | 'cancelOrder'>
