/**
 * The webhook endpoints' operations: listWebhookEndpoints, createWebhookEndpoint,
 * getWebhookEndpoint, updateWebhookEndpoint, deleteWebhookEndpoint, rotateWebhookSecret,
 * listWebhookDeliveries, recoverWebhookEndpoint. Experimental (their `x-stability`);
 * validation, scopes and errors come from the document, as for pets. A URL is checked here
 * (./addresses.ts), since whether it may be called depends on what its host resolves to.
 */
import type { FastifyRequest } from 'fastify'
import type { Handlers } from '../../contract/handler-types.ts'
import { parseDateTime } from '../../contract/date-time.ts'
import { decodeCursor, linkedPage } from '../../contract/paging.ts'
import { selects } from '../../contract/webhooks.ts'
import { ApiError } from '../../http/error-codes.ts'
import { INT64_MAX } from '../../http/int64.ts'
import { EMITTED_EVENTS } from '../events/types.ts'
import { checkWebhookUrl } from './addresses.ts'
import { listDeliveries, recoverDeliveries } from './deliveries.ts'
import * as endpoints from './endpoints.ts'
import { newWebhookSecret } from './signature.ts'

const notFound = (id: number | bigint) => new ApiError('not_found', `Webhook endpoint ${id} not found`)

/**
 * Refuses a key that may not read every event `selections` reach: an endpoint receives
 * each event's data, so making one, pointing it elsewhere, turning it on or recovering what
 * it missed needs the read scope of each resource it reaches (../events/readable.ts), not
 * only `webhooks:write`. A 403 naming the scopes missing.
 */
function requireReadScopes (request: FastifyRequest, selections: readonly string[]): void {
  const { auth, events } = request.server
  const missing = new Set<string>()
  for (const [type, scope] of events.readScopes) {
    if (selects(selections, type) && !auth.may(request, scope)) missing.add(scope)
  }
  const refusal = missing.size === 0 ? undefined : auth.authorize(request, [[...missing]], `for the events it selects (${selections.join(', ')})`)
  if (refusal !== undefined) throw refusal
}

/** The URL as sent, once the service will call it; a 400 `invalid_webhook_url` saying why not. */
async function checkedUrl (request: FastifyRequest, url: string): Promise<string> {
  const { allowedNetworks, lookup } = request.server.webhooks
  const checked = await checkWebhookUrl(url, allowedNetworks, lookup)
  if (!checked.ok) throw new ApiError('invalid_webhook_url', `body/url is not a URL webhooks can go to: ${checked.reason}`)
  return url
}

export const webhookHandlers = {
  async listWebhookEndpoints (request, reply) {
    const { cursor } = request.query
    // AJV has applied the document's default, so `limit` is always there.
    const limit = request.query.limit!
    const afterId = cursor === undefined ? 0 : decodeCursor(cursor)
    const page = await endpoints.listEndpoints(request.db, { afterId, limit })
    return linkedPage(reply, request.routeOptions.url!, request.query, page)
  },

  async createWebhookEndpoint (request, reply) {
    const { events, description } = request.body
    requireReadScopes(request, events)
    const url = await checkedUrl(request, request.body.url)
    const secret = newWebhookSecret()
    const { maxEndpoints } = request.server.webhooks
    const endpoint = await endpoints.createEndpoint(request.db, {
      url,
      events,
      description: description ?? null,
      secret: await request.server.secrets.seal(secret),
      createdAt: new Date().toISOString()
    }, maxEndpoints)
    if (endpoint === 'full') {
      throw new ApiError('conflict', `There are ${maxEndpoints} webhook endpoints already, the most this service keeps (WEBHOOK_MAX_ENDPOINTS): remove one, or edit one to send where this one would`)
    }
    // Returned, not sent: an idempotent create keeps the answer (sealed) before it goes out.
    reply.code(201)
    return { ...endpoint, secret }
  },

  async getWebhookEndpoint (request) {
    const row = await endpoints.findEndpoint(request.db, request.params.endpointId)
    if (row === undefined) throw notFound(request.params.endpointId)
    return endpoints.toEndpoint(row)
  },

  async updateWebhookEndpoint (request) {
    const { endpointId } = request.params
    const patch = request.body
    if (patch.url !== undefined || patch.events !== undefined || patch.enabled !== undefined) {
      const current = patch.events === undefined ? await endpoints.findEndpoint(request.db, endpointId) : undefined
      if (patch.events === undefined && current === undefined) throw notFound(endpointId)
      requireReadScopes(request, patch.events ?? endpoints.toEndpoint(current!).events)
    }
    if (patch.url !== undefined) await checkedUrl(request, patch.url)
    const updated = await endpoints.updateEndpoint(request.db, endpointId, patch, new Date())
    if (updated === undefined) throw notFound(endpointId)
    return updated
  },

  async deleteWebhookEndpoint (request, reply) {
    const { endpointId } = request.params
    if (!await endpoints.deleteEndpoint(request.db, endpointId)) throw notFound(endpointId)
    return reply.code(204).send()
  },

  async rotateWebhookSecret (request) {
    const { endpointId } = request.params
    // AJV has applied the document's default.
    const graceSeconds = request.body.graceSeconds!
    const secret = newWebhookSecret()
    const { secrets } = request.server
    const grace = graceSeconds === 0 ? undefined : new Date(Date.now() + graceSeconds * 1000)
    // A current secret this service cannot open (its key lost) cannot sign: it is not kept.
    const readable = async (sealed: string) => secrets.open(sealed).then(() => true, () => false)
    const rotated = await endpoints.rotateSecret(request.db, endpointId, await secrets.seal(secret), grace, readable)
    if (rotated === false) throw notFound(endpointId)
    const { previousUntil } = rotated
    return previousUntil === undefined ? { secret } : { secret, previousSecretExpiresAt: previousUntil.toISOString() }
  },

  async listWebhookDeliveries (request, reply) {
    const { endpointId } = request.params
    const { cursor } = request.query
    const limit = request.query.limit!
    if (await endpoints.findEndpoint(request.db, endpointId) === undefined) throw notFound(endpointId)
    const beforeId = cursor === undefined ? INT64_MAX : decodeCursor(cursor)
    const page = await listDeliveries(request.db, endpointId, { beforeId, limit })
    // The route's path, with this endpoint's id in place of its placeholder.
    return linkedPage(reply, request.routeOptions.url!.replace(':endpointId', String(endpointId)), request.query, page)
  },

  async recoverWebhookEndpoint (request, reply) {
    const { endpointId } = request.params
    const row = await endpoints.findEndpoint(request.db, endpointId)
    if (row === undefined) throw notFound(endpointId)
    const endpoint = endpoints.toEndpoint(row)
    requireReadScopes(request, endpoint.events)
    if (!endpoint.enabled) throw new ApiError('conflict', `Webhook endpoint ${endpointId} is disabled; enable it before recovering what it missed`)
    const scheduled = await recoverDeliveries(request.db, {
      endpointId,
      since: parseDateTime(request.body.since),
      createdAt: endpoint.createdAt,
      types: Object.keys(EMITTED_EVENTS).filter((type) => selects(endpoint.events, type)),
      now: new Date()
    })
    reply.code(202)
    return { scheduled }
  }
} satisfies Pick<Handlers, 'listWebhookEndpoints' | 'createWebhookEndpoint' | 'getWebhookEndpoint' | 'updateWebhookEndpoint' |
'deleteWebhookEndpoint' | 'rotateWebhookSecret' | 'listWebhookDeliveries' | 'recoverWebhookEndpoint'>
