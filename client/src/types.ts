/**
 * The client's types, all derived from ./generated/openapi.ts (itself generated from
 * spec/openapi.yaml), so that they change with the document and never drift from it.
 * int64 fields are `number | bigint`: a bigint past 2^53, a number below.
 */
import type { components, operations } from './generated/openapi.ts'
import type { Page } from './paging.ts'
import type { Fetch, RetryOptions } from './retry.ts'

type Schemas = components['schemas']

export type Pet = Schemas['Pet']
export type NewPet = Schemas['NewPet']
export type PetStatus = Schemas['PetStatus']
export type Order = Schemas['Order']
/**
 * An order to place. `quantity` and `complete` have defaults in the document (1 and false),
 * which the generated type marks required, as it is written for answers: here they are optional.
 */
export type NewOrder = Omit<Schemas['NewOrder'], 'quantity' | 'complete'> & Partial<Pick<Schemas['NewOrder'], 'quantity' | 'complete'>>
export type ListPetsQuery = NonNullable<operations['listPets']['parameters']['query']>
export type ListOrdersQuery = NonNullable<operations['listOrders']['parameters']['query']>
export type Int64 = Pet['id']

export interface PetstoreClientOptions {
  /** The service's URL with its `/v1` prefix, for example `https://petstore.example.com/v1`. */
  baseUrl: string
  /** Sent as `Authorization: Bearer <apiKey>`. */
  apiKey: string
  /** Sends each request (default: the global fetch). */
  fetch?: Fetch
  /** Retry settings; `false` sends each request once. */
  retry?: RetryOptions | false
}

export interface CallOptions {
  /** Ends the call, waits between retries included. */
  signal?: AbortSignal
}

export interface CreateOptions extends CallOptions {
  /** Makes a repeat of this create safe (default: a new UUID for each call). */
  idempotencyKey?: string
}

/** One method per operation of the document, named by its operationId. */
export interface PetstoreClient {
  /** Every pet, page after page, as the loop asks for them; `limit` is the page size. */
  listPets: (query?: ListPetsQuery, options?: CallOptions) => AsyncIterable<Pet>
  /** One page of pets; pass `nextCursor` back as `cursor` for the next. */
  listPetsPage: (query?: ListPetsQuery, options?: CallOptions) => Promise<Page<Pet>>
  createPet: (pet: NewPet, options?: CreateOptions) => Promise<Pet>
  /** @deprecated The service removes getPet on 2030-12-05 (then 410 `gone`): use listPets. */
  getPet: (petId: Int64, options?: CallOptions) => Promise<Pet>
  /** Every order, page after page (experimental in the service). */
  listOrders: (query?: ListOrdersQuery, options?: CallOptions) => AsyncIterable<Order>
  listOrdersPage: (query?: ListOrdersQuery, options?: CallOptions) => Promise<Page<Order>>
  /** Places an order (experimental in the service). */
  placeOrder: (order: NewOrder, options?: CreateOptions) => Promise<Order>
  /**
   * Cancels an order (beta in the service). Resolves once the order is gone, including when
   * an attempt's answer was lost and the retry finds it already cancelled.
   */
  cancelOrder: (orderId: Int64, options?: CallOptions) => Promise<void>
}
