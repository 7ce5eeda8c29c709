/**
 * createPetstoreClient: one method per operation of the document, made from the table
 * `npm run codegen` writes (./generated/operations.ts), each a thin layer over openapi-fetch.
 * What the layer adds is what openapi-fetch leaves to its callers: exact int64 JSON both
 * ways, a thrown PetstoreError for every answer that is not a success (tested on
 * `response.ok`: an error without a body has no `error`), pages followed through their Link,
 * an Idempotency-Key on every call of an operation that declares it, and retries.
 */
import createClient from 'openapi-fetch'
import { errorFromResponse } from './errors.ts'
import { OPERATIONS } from './generated/operations.ts'
import { assertExact, parseJson, stringifyJson } from './json.ts'
import type { Operation } from './operation.ts'
import { everyItem, linkedPage, type LinkedPage, type Query } from './paging.ts'
import { retrying } from './retry.ts'
import type { ConditionalOptions, CreateOptions, PetstoreClient, PetstoreClientOptions } from './types.ts'

interface Answer { data?: string, error?: unknown, response: Response }
interface Init {
  params: { path: Record<string, unknown>, query?: Query, header: Record<string, string> }
  body?: unknown
  headers: Record<string, string>
  fetch: (request: Request) => Promise<Response>
  signal: AbortSignal | undefined
  parseAs: 'text'
}
/** openapi-fetch's `request`, untyped: ./types.ts types each method by its operationId. */
type Send = (method: string, path: string, init: Init) => Promise<Answer>
type Method = (...args: unknown[]) => unknown
type Arguments = ReturnType<typeof argumentsOf>

/** A call's arguments, as the table orders them: path parameters, body, query, options. */
function argumentsOf (operation: Operation, args: unknown[]) {
  let next = 0
  const path = Object.fromEntries(operation.pathParameters.map((name) => {
    const value = args[next++]
    assertExact(value, name)
    return [name, value]
  }))
  const body = operation.body === null ? undefined : args[next++]
  const query = operation.query === 'none' ? undefined : (args[next++] ?? {}) as Query
  assertExact(query, 'query')
  return { path, body, query, options: (args[next] ?? {}) as CreateOptions & ConditionalOptions }
}

export function createPetstoreClient (options: PetstoreClientOptions): PetstoreClient {
  const methods = methodsOf(OPERATIONS, options)
  // The feed by its own name: `for await (const event of client.events({ wait: 30 }))`.
  return { ...methods, events: methods.listEvents } as unknown as PetstoreClient
}

/** The methods of every operation of `table`, by operationId (and `<operationId>Page` for each list). */
export function methodsOf (table: Readonly<Record<string, Operation>>, options: PetstoreClientOptions): Record<string, Method> {
  const api = createClient({
    baseUrl: options.baseUrl,
    headers: { authorization: `Bearer ${options.apiKey}` },
    bodySerializer: stringifyJson
  })
  const request = api.request as unknown as Send
  // Looked up at each call, so a fetch replaced after the client was made is the one used.
  const send = retrying(options.fetch ?? ((request) => globalThis.fetch(request)), options.retry)

  /**
   * One call, bodies read as text to be parsed exactly: the parsed body of a success (an
   * empty or garbled one throws the parser's SyntaxError); any other answer thrown.
   */
  async function answer (operation: Operation, args: Arguments): Promise<{ value: unknown, response: Response }> {
    const { path, body, query, options } = args
    let lostAnswer = false
    const { data, error, response } = await request(operation.method, operation.path, {
      params: {
        path,
        query,
        header: {
          ...(operation.idempotencyKey && { 'Idempotency-Key': options.idempotencyKey ?? globalThis.crypto.randomUUID() }),
          ...(operation.ifMatch && options.ifMatch !== undefined && { 'If-Match': options.ifMatch })
        }
      },
      body,
      headers: operation.body === null || operation.body === 'application/json' ? {} : { 'Content-Type': operation.body },
      fetch: (request: Request) => send(request, { onLostAnswer: () => { lostAnswer = true } }),
      signal: options.signal,
      parseAs: 'text'
    })
    // The attempt whose answer was lost may be the one that did it: gone either way.
    if (operation.method === 'DELETE' && response.status === 404 && lostAnswer) return { value: undefined, response }
    if (!response.ok) throw errorFromResponse(response, error)
    return { value: operation.answer === 'none' ? undefined : parseJson(data ?? ''), response }
  }

  /** The first page's query, and how to fetch any page, of a list called with `args`. */
  function pages (operation: Operation, args: unknown[]) {
    const given = argumentsOf(operation, args)
    const fetchPage = async (query: Query): Promise<LinkedPage<unknown>> => {
      const { value, response } = await answer(operation, { ...given, query })
      return linkedPage(value as unknown[], response.headers.get('link'))
    }
    return { first: given.query ?? {}, fetchPage }
  }

  const methods: Record<string, Method> = {}
  for (const [id, operation] of Object.entries(table)) {
    if (!operation.paged) {
      methods[id] = async (...args) => (await answer(operation, argumentsOf(operation, args))).value
      continue
    }
    methods[id] = (...args) => ({
      async * [Symbol.asyncIterator] () {
        const { first, fetchPage } = pages(operation, args)
        yield * everyItem(first, fetchPage)
      }
    })
    methods[`${id}Page`] = async (...args) => {
      const { first, fetchPage } = pages(operation, args)
      return (await fetchPage(first)).page
    }
  }
  return methods
}
