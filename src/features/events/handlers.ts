/**
 * The event feed: listEvents and getEvent. Each event is serialized with its type's envelope
 * schema, the request body its webhook declares (../../contract/webhooks.ts); a page is
 * those, in order. `wait` is the business of ./waiting.ts, around these, and which event
 * types the key may read that of ./readable.ts.
 */
import type { FastifyReply } from 'fastify'
import type { Handlers } from '../../contract/handler-types.ts'
import { decodeCursor, nextPageLink } from '../../contract/paging.ts'
import { ApiError } from '../../http/error-codes.ts'
import { JSON_MEDIA_TYPE } from '../../http/media-type.ts'
import { unreadableEvent } from './readable.ts'
import * as events from './repository.ts'

/** JSON text, sent as it is (a handler's text bypasses the route's serializer). */
function jsonText (reply: FastifyReply, text: string): never {
  reply.type(JSON_MEDIA_TYPE)
  return text as never
}

export const eventHandlers = {
  async listEvents (request, reply) {
    const { cursor, type } = request.query
    // AJV has applied the document's default, so `limit` is always there.
    const limit = request.query.limit!
    const after = cursor === undefined ? 0 : decodeCursor(cursor)
    const page = await events.listEvents(request.db, { after, limit, type, types: request.readableEvents })
    // Every page links to the next, an empty one to itself: a reader polls on from there.
    const last = page.at(-1)?.sequence ?? (cursor === undefined ? undefined : after)
    reply.header('link', nextPageLink(request.routeOptions.url!, request.query, last))
    return jsonText(reply, `[${page.map(request.server.events.serialize).join(',')}]`)
  },

  async getEvent (request, reply) {
    const { eventId } = request.params
    const event = await events.findEvent(request.db, eventId)
    if (event === undefined) throw new ApiError('not_found', `Event ${eventId} not found`)
    if (request.readableEvents !== undefined && !request.readableEvents.includes(event.type)) throw unreadableEvent(request.server, request, event.type)
    return jsonText(reply, request.server.events.serialize(event))
  }
} satisfies Pick<Handlers, 'listEvents' | 'getEvent'>
