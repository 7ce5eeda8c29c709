/**
 * The pet operations: listPets, createPet, getPet. Method, URL, schemas and the headers
 * around them come from the document (../../contract/wiring.ts); the types from
 * generated/openapi.ts.
 */
import { ApiError } from '../../http/error-codes.ts'
import type { Handlers } from '../../contract/handler-types.ts'
import { decodeCursor, linkedPage } from '../../contract/paging.ts'
import * as pets from './repository.ts'

export const petHandlers = {
  async listPets (request, reply) {
    const { status, cursor } = request.query
    // AJV has applied the document's default, so `limit` is always there.
    const limit = request.query.limit!
    const afterId = cursor === undefined ? 0 : decodeCursor(cursor)
    const page = await pets.listPets(request.db, { limit, status, afterId })
    return linkedPage(reply, request.routeOptions.url!, { limit, status }, page)
  },

  async createPet (request, reply) {
    const pet = await pets.createPet(request.db, request.body)
    // Returned, not sent: an idempotent create keeps the answer before it goes out.
    reply.code(201)
    return pet
  },

  async getPet (request) {
    const pet = await pets.findPet(request.db, request.params.petId)
    if (pet === undefined) throw new ApiError('not_found', `Pet ${request.params.petId} not found`)
    return pet
  }
} satisfies Pick<Handlers, 'listPets' | 'createPet' | 'getPet'>
