/**
 * The pet operations: listPets, createPet, getPet, updatePet. Method, URL, schemas and the headers
 * around them come from the document (../../contract/wiring.ts); the types from
 * generated/openapi.ts.
 */
import type { components } from '../../../generated/openapi.ts'
import { entityTag, match } from '../../http/conditional.ts'
import { ApiError } from '../../http/error-codes.ts'
import type { Handlers } from '../../contract/handler-types.ts'
import { decodeCursor, linkedPage } from '../../contract/paging.ts'
import { readPage, readRow } from '../../database/row-reads.ts'
import * as pets from './repository.ts'

export const petHandlers = {
  async listPets (request, reply) {
    const { status, categoryId, cursor } = request.query
    // AJV has applied the document's default, so `limit` is always there.
    const limit = request.query.limit!
    const afterId = cursor === undefined ? 0 : decodeCursor(cursor)
    const page = await pets.listPets(request.db, { limit, status, categoryId, afterId })
    readPage(reply, 'pets', afterId, page.nextId)
    return linkedPage(reply, request.routeOptions.url!, request.query, page)
  },

  async createPet (request, reply) {
    const pet = await pets.createPet(request.db, request.body)
    // Returned, not sent: an idempotent create keeps the answer before it goes out.
    reply.code(201)
    return pet
  },

  async getPet (request, reply) {
    readRow(reply, 'pets', request.params.petId)
    const pet = await pets.findPet(request.db, request.params.petId)
    if (pet === undefined) throw new ApiError('not_found', `Pet ${request.params.petId} not found`)
    return pet
  },

  async updatePet (request, reply) {
    const { petId } = request.params
    const ifMatch = request.headers['if-match']
    // The tag getPet sends: of the same bytes, serialized by the same Pet schema.
    const tagOf = (pet: components['schemas']['Pet']) => {
      const body = reply.serialize(pet)
      // A string: JSON schemas serialize to text.
      return entityTag(typeof body === 'string' ? body : Buffer.from(body as ArrayBuffer))
    }
    const update = await pets.updatePet(request.db, petId, request.body, (current) => ifMatch === undefined || match(ifMatch, tagOf(current)))
    switch (update.outcome) {
      case 'missing':
        throw new ApiError('not_found', `Pet ${petId} not found`)
      case 'precondition_failed':
        throw new ApiError('precondition_failed', `Pet ${petId} was not changed: its current ETag is not one If-Match names`)
      case 'held': {
        // The order is named only to a key that may read it.
        const order = request.server.auth.may(request, 'orders:read') ? `open order ${update.orderId}` : 'an open order'
        throw new ApiError('conflict', `Pet ${petId} is held by ${order}; its status cannot change until the order is completed or cancelled`)
      }
    }
    reply.header('etag', tagOf(update.pet))
    return update.pet
  }
} satisfies Pick<Handlers, 'listPets' | 'createPet' | 'getPet' | 'updatePet'>
