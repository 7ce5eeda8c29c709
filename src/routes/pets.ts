/**
 * The pet operations: listPets, createPet, getPet. Schemas come from the spec; handlers
 * are named after their operationId.
 */
import type { FastifyInstance } from 'fastify'
import type { components, operations } from '../../generated/openapi.ts'
import { deprecationHooks, type Clock } from '../deprecation.ts'
import { ApiError } from '../errors.ts'
import { decodeCursor, nextPageLink } from '../pagination.ts'
import * as pets from '../repositories/pets.ts'
import { operation, routeSchema } from '../spec.ts'

type Pet = components['schemas']['Pet']
type Pets = components['schemas']['Pets']
// AJV applies the spec's default, so `limit` is always present.
type ListPetsQuery = NonNullable<operations['listPets']['parameters']['query']> & { limit: number }
type NewPet = components['schemas']['NewPet']
type GetPetParams = operations['getPet']['parameters']['path']

export interface PetRoutesOptions {
  now: Clock
}

export default async function petRoutes (app: FastifyInstance, { now }: PetRoutesOptions) {
  /** Method, URL, schemas and (for a deprecated operation) deprecation hooks, from the spec. */
  const route = (operationId: string) => {
    const op = operation(operationId)
    return { method: op.method, url: op.url, schema: routeSchema(operationId), ...deprecationHooks(op, app.prefix, now) }
  }
  const listPath = `${app.prefix}${operation('listPets').path}`

  app.route<{ Querystring: ListPetsQuery, Reply: Pets }>({
    ...route('listPets'),
    handler: async function listPets (request, reply) {
      const { limit, status, cursor } = request.query
      const afterId = cursor === undefined ? 0 : decodeCursor(cursor)
      const page = await pets.listPets(app.db, { limit, status, afterId })
      if (page.more) {
        reply.header('link', nextPageLink(listPath, { limit, status }, page.pets.at(-1)!.id))
      }
      return page.pets
    }
  })

  app.route<{ Body: NewPet, Reply: Pet }>({
    ...route('createPet'),
    handler: async function createPet (request, reply) {
      const pet = await pets.createPet(app.db, request.body)
      return reply.code(201).send(pet)
    }
  })

  app.route<{ Params: GetPetParams, Reply: Pet }>({
    ...route('getPet'),
    handler: async function getPet (request) {
      const pet = await pets.findPet(app.db, request.params.petId)
      if (pet === undefined) throw new ApiError('not_found', `Pet ${request.params.petId} not found`)
      return pet
    }
  })
}
