/**
 * createPetstoreClient: one method per operation of the document, each a thin layer over
 * openapi-fetch and the generated types. What the layer adds is what openapi-fetch leaves
 * to its callers: exact int64 JSON both ways, a thrown PetstoreError for every answer that
 * is not a success (tested on `response.ok`: an error without a body has no `error`),
 * pages followed through their Link, an Idempotency-Key on every POST, and retries.
 */
import createClient from 'openapi-fetch'
import type { components, paths } from './generated/openapi.ts'
import { errorFromResponse } from './errors.ts'
import { assertExact, parseJson, stringifyJson } from './json.ts'
import { everyItem, linkedPage, type LinkedPage, type Query } from './paging.ts'
import { retrying, type AttemptEvents } from './retry.ts'
import type { CallOptions, ListOrdersQuery, ListPetsQuery, Order, Pet, PetstoreClient, PetstoreClientOptions } from './types.ts'

interface Answer { data?: string, error?: unknown, response: Response }

/** The parsed body of a successful answer; a PetstoreError for any other. */
async function answer<T> (call: Promise<Answer>): Promise<{ value: T, response: Response }> {
  const { data, error, response } = await call
  if (!response.ok) throw errorFromResponse(response, error)
  // An empty or garbled success body throws the parser's SyntaxError.
  return { value: parseJson(data ?? '') as T, response }
}

export function createPetstoreClient (options: PetstoreClientOptions): PetstoreClient {
  const api = createClient<paths>({
    baseUrl: options.baseUrl,
    headers: { authorization: `Bearer ${options.apiKey}` },
    bodySerializer: stringifyJson
  })
  // Looked up at each call, so a fetch replaced after the client was made is the one used.
  const send = retrying(options.fetch ?? ((request) => globalThis.fetch(request)), options.retry)

  /** What every call passes openapi-fetch: bodies read as text, to be parsed exactly. */
  const init = ({ signal }: CallOptions, events?: AttemptEvents) =>
    ({ fetch: (request: Request) => send(request, events), signal, parseAs: 'text' as const })
  const idempotencyKey = (given: string | undefined) => ({ 'Idempotency-Key': given ?? globalThis.crypto.randomUUID() })

  async function petsPage (query: Query, call: CallOptions): Promise<LinkedPage<Pet>> {
    const { value, response } = await answer<Pet[]>(api.GET('/pets', { params: { query: query as ListPetsQuery }, ...init(call) }))
    return linkedPage(value, response.headers.get('link'))
  }

  async function ordersPage (query: Query, call: CallOptions): Promise<LinkedPage<Order>> {
    const { value, response } = await answer<Order[]>(api.GET('/store/orders', { params: { query: query as ListOrdersQuery }, ...init(call) }))
    return linkedPage(value, response.headers.get('link'))
  }

  return {
    listPets: (query = {}, call = {}) => everyItem(query, (page) => petsPage(page, call)),
    listPetsPage: async (query = {}, call = {}) => (await petsPage(query, call)).page,

    async createPet (pet, call = {}) {
      const params = { header: idempotencyKey(call.idempotencyKey) }
      return (await answer<Pet>(api.POST('/pets', { body: pet, params, ...init(call) }))).value
    },

    async getPet (petId, call = {}) {
      assertExact(petId, 'petId')
      return (await answer<Pet>(api.GET('/pets/{petId}', { params: { path: { petId } }, ...init(call) }))).value
    },

    listOrders: (query = {}, call = {}) => everyItem(query, (page) => ordersPage(page, call)),
    listOrdersPage: async (query = {}, call = {}) => (await ordersPage(query, call)).page,

    async placeOrder (order, call = {}) {
      const params = { header: idempotencyKey(call.idempotencyKey) }
      // The service applies the defaults the generated type marks required (see NewOrder).
      const body = order as components['schemas']['NewOrder']
      return (await answer<Order>(api.POST('/store/orders', { body, params, ...init(call) }))).value
    },

    async cancelOrder (orderId, call = {}) {
      assertExact(orderId, 'orderId')
      let lostAnswer = false
      const { error, response } = await api.DELETE('/store/orders/{orderId}', {
        params: { path: { orderId } },
        ...init(call, { onLostAnswer: () => { lostAnswer = true } })
      })
      // The attempt whose answer was lost may be the one that cancelled it: gone either way.
      if (response.status === 404 && lostAnswer) return
      if (!response.ok) throw errorFromResponse(response, error)
    }
  }
}
