/**
 * The client's types, all derived from ./generated/openapi.ts (itself generated from
 * spec/openapi.yaml), so that they change with the document and never drift from it.
 * int64 fields are `number | bigint`: a bigint past 2^53, a number below.
 */
import type { components, operations } from './generated/openapi.ts'
import type { OPERATIONS, PageMethods } from './generated/operations.ts'
import type { MediaType } from './operation.ts'
import type { Page } from './paging.ts'
import type { Fetch, RetryOptions } from './retry.ts'

type Schemas = components['schemas']

export type Pet = Schemas['Pet']
export type NewPet = Schemas['NewPet']
export type PetStatus = Schemas['PetStatus']
export type Order = Schemas['Order']
/** An order to place: `quantity` and `complete`, which the document defaults, are optional. */
export type NewOrder = RequestBody<'placeOrder'>
export type ListPetsQuery = Query<'listPets'>
export type ListOrdersQuery = Query<'listOrders'>
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

export interface ConditionalOptions extends CallOptions {
  /** An `ETag` (or a list, or `*`): the service acts only if the resource still matches it, else 412. */
  ifMatch?: string
}

/**
 * One method per operation of the document, named by its operationId, typed from the
 * generated table (./generated/operations.ts) and types (./generated/openapi.ts): a new
 * operation is a new method after `npm run codegen`. Its JSDoc (summary, stability,
 * `@deprecated`) is the table's, which the mapped type keeps.
 */
export type PetstoreClient = {
  -readonly [Id in keyof Table]: Table[Id]['paged'] extends true
    ? (...args: ListArguments<Id>) => AsyncIterable<Item<Id>>
    : (...args: Arguments<Id>) => Promise<Answer<Id>>
} & {
  [Name in keyof PageMethods]: (...args: ListArguments<PageMethods[Name]>) => Promise<Page<Item<PageMethods[Name]>>>
} & {
  /**
   * The event feed, oldest first, from `cursor` (or the start): to its end, or, with `wait`
   * (seconds, 1 to 30), for as long as you iterate, each empty page waiting that long on the
   * service for the next event. `listEvents` by another name.
   */
  events: (...args: ListArguments<'listEvents'>) => AsyncIterable<Event>
}

/** An event of the feed, of any type; its `type` tells which. */
export type Event = components['schemas']['Event']

/*
 * A method's arguments: the path parameters in the path's order, the body, the query object
 * (when the operation declares query parameters; optional unless one is required), then the
 * call options. Its answer: the JSON body of a success, or nothing.
 */
type Table = typeof OPERATIONS
type OperationId = keyof Table
type Entry<Id extends OperationId> = Table[Id]
/** Its generated types (the table's keys are those of `operations`: it `satisfies` them). */
type Types<Id extends OperationId> = operations[Id & keyof operations]

type Values<Names extends readonly string[], Of> = { [I in keyof Names]: Of[Names[I] & keyof Of] }
type PathArguments<Id extends OperationId> = Values<Entry<Id>['pathParameters'], NonNullable<Types<Id>['parameters']['path']>>

type BodyContent<Id extends OperationId> = NonNullable<Types<Id>['requestBody']>['content']
/** The body, less the requirement of the properties the service defaults. */
type RequestBody<Id extends OperationId> = Entry<Id>['body'] extends MediaType
  ? Optional<BodyContent<Id>[Entry<Id>['body'] & keyof BodyContent<Id>], Entry<Id>['defaulted'][number]>
  : never
type Optional<Body, Keys> = [Keys] extends [never] ? Body : Omit<Body, Keys & keyof Body> & Partial<Pick<Body, Keys & keyof Body>>
type BodyArgument<Id extends OperationId> = Entry<Id>['body'] extends MediaType ? [body: RequestBody<Id>] : []

type Query<Id extends OperationId> = NonNullable<Types<Id>['parameters']['query']>
type QueryArgument<Id extends OperationId> = { none: [], optional: [query?: Query<Id>], required: [query: Query<Id>] }[Entry<Id>['query']]

type Options<Id extends OperationId> = Entry<Id>['idempotencyKey'] extends true
  ? CreateOptions
  : Entry<Id>['ifMatch'] extends true ? ConditionalOptions : CallOptions
type Arguments<Id extends OperationId> = [...PathArguments<Id>, ...BodyArgument<Id>, ...QueryArgument<Id>, options?: Options<Id>]
type ListArguments<Id extends OperationId> = [...PathArguments<Id>, ...QueryArgument<Id>, options?: CallOptions]

type Success<Responses> = {
  [Status in keyof Responses]: `${Status & (number | string)}` extends `2${string}`
    ? Responses[Status] extends { content: { 'application/json': infer Body } } ? Body : never
    : never
}[keyof Responses]
type Answer<Id extends OperationId> = Entry<Id>['answer'] extends 'json' ? Success<Types<Id>['responses']> : void
type Item<Id extends OperationId> = Answer<Id> extends ReadonlyArray<infer Each> ? Each : never
