/**
 * The store-order operations: listOrders, getOrder, placeOrder, updateOrder, cancelOrder.
 * Experimental and beta (their `x-stability` in the document); everything around them comes
 * from the document, as for pets. Orders move their pet (./repository.ts).
 */
import { ApiError } from '../../http/error-codes.ts'
import type { Handlers } from '../../contract/handler-types.ts'
import { decodeCursor, linkedPage } from '../../contract/paging.ts'
import { readPage, readRow } from '../../database/row-reads.ts'
import * as orders from './repository.ts'

const notFound = (orderId: number | bigint) => new ApiError('not_found', `Order ${orderId} not found`)

export const orderHandlers = {
  async listOrders (request, reply) {
    const { cursor } = request.query
    // AJV has applied the document's default, so `limit` is always there.
    const limit = request.query.limit!
    const afterId = cursor === undefined ? 0 : decodeCursor(cursor)
    const page = await orders.listOrders(request.db, { limit, afterId })
    readPage(reply, 'orders', afterId, page.nextId)
    return linkedPage(reply, request.routeOptions.url!, request.query, page)
  },

  async getOrder (request, reply) {
    readRow(reply, 'orders', request.params.orderId)
    const order = await orders.findOrder(request.db, request.params.orderId)
    if (order === undefined) throw notFound(request.params.orderId)
    return order
  },

  async placeOrder (request, reply) {
    const { petId } = request.body
    const placed = await orders.placeOrder(request.db, request.body)
    if (placed.outcome === 'no-pet') {
      throw new ApiError('invalid_request', `body/petId must name an existing pet; there is no pet ${petId}`)
    }
    if (placed.outcome === 'unavailable') {
      // The pet's status is told only to a key that may read pets.
      const mayReadPets = request.server.auth.may(request, 'pets:read')
      const status = placed.status === null ? ' (it has no status)' : ` (its status is ${placed.status})`
      const why = mayReadPets ? status : ''
      throw new ApiError('conflict', `Pet ${petId} is not available${why}`)
    }
    // Returned, not sent: an idempotent create keeps the answer before it goes out.
    reply.code(201)
    return placed.order
  },

  async updateOrder (request) {
    const { orderId } = request.params
    const outcome = await orders.updateOrder(request.db, orderId, request.body)
    if (outcome === 'missing') throw notFound(orderId)
    if (outcome === 'complete') throw new ApiError('conflict', `Order ${orderId} is complete (shipped) and cannot be made incomplete again`)
    return outcome
  },

  async cancelOrder (request, reply) {
    const { orderId } = request.params
    const outcome = await orders.cancelOrder(request.db, orderId)
    if (outcome === 'missing') throw notFound(orderId)
    if (outcome === 'complete') throw new ApiError('conflict', `Order ${orderId} is complete (shipped) and can no longer be cancelled`)
    return reply.code(204).send()
  }
} satisfies Pick<Handlers, 'listOrders' | 'getOrder' | 'placeOrder' | 'updateOrder' | 'cancelOrder'>
