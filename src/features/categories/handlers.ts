/**
 * The category operations: listCategories, createCategory, getCategory, updateCategory,
 * deleteCategory. Beta (their `x-stability` in the document); everything around them comes
 * from the document, as for pets. Pets are never checked against categories: since 1.0.0 a
 * pet may name any category id (docs/decisions.md#categories).
 */
import type { components } from '../../../generated/openapi.ts'
import { entityTag, match } from '../../http/conditional.ts'
import { ApiError } from '../../http/error-codes.ts'
import type { Handlers } from '../../contract/handler-types.ts'
import { decodeCursor, linkedPage } from '../../contract/paging.ts'
import { readPage, readRow } from '../../database/row-reads.ts'
import * as categories from './repository.ts'

const notFound = (id: number | bigint) => new ApiError('not_found', `Category ${id} not found`)

const taken = (name: string, holderId: number | bigint) =>
  new ApiError('conflict', `Category ${holderId} is named ${JSON.stringify(name)} already; category names are unique, whatever their case`)

export const categoryHandlers = {
  async listCategories (request, reply) {
    const { cursor } = request.query
    // AJV has applied the document's default, so `limit` is always there.
    const limit = request.query.limit!
    const afterId = cursor === undefined ? 0 : decodeCursor(cursor)
    const page = await categories.listCategories(request.db, { limit, afterId })
    readPage(reply, 'categories', afterId, page.nextId)
    return linkedPage(reply, request.routeOptions.url!, request.query, page)
  },

  async createCategory (request, reply) {
    const written = await categories.createCategory(request.db, request.body)
    if (written.outcome === 'taken') throw taken(request.body.name, written.holderId)
    // Returned, not sent: an idempotent create keeps the answer before it goes out.
    reply.code(201)
    return written.category
  },

  async getCategory (request, reply) {
    readRow(reply, 'categories', request.params.categoryId)
    const category = await categories.findCategory(request.db, request.params.categoryId)
    if (category === undefined) throw notFound(request.params.categoryId)
    return category
  },

  async updateCategory (request, reply) {
    const { categoryId } = request.params
    const ifMatch = request.headers['if-match']
    // The tag getCategory sends: of the same bytes, serialized by the same Category schema.
    const tagOf = (category: components['schemas']['Category']) => {
      const body = reply.serialize(category)
      // A string: JSON schemas serialize to text.
      return entityTag(typeof body === 'string' ? body : Buffer.from(body as ArrayBuffer))
    }
    const update = await categories.updateCategory(request.db, categoryId, request.body, (current) => ifMatch === undefined || match(ifMatch, tagOf(current)))
    switch (update.outcome) {
      case 'missing':
        throw notFound(categoryId)
      case 'precondition_failed':
        throw new ApiError('precondition_failed', `Category ${categoryId} was not changed: its current ETag is not one If-Match names`)
      case 'taken':
        throw taken(request.body.name!, update.holderId)
    }
    reply.header('etag', tagOf(update.category))
    return update.category
  },

  async deleteCategory (request, reply) {
    const { categoryId } = request.params
    if (!await categories.deleteCategory(request.db, categoryId)) throw notFound(categoryId)
    return reply.code(204).send()
  }
} satisfies Pick<Handlers, 'listCategories' | 'createCategory' | 'getCategory' | 'updateCategory' | 'deleteCategory'>
