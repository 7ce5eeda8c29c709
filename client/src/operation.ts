/**
 * What the client knows of one operation of the document: enough to call it (./client.ts)
 * and to type its method (./types.ts). `npm run codegen` writes one for every operation into
 * ./generated/operations.ts (scripts/lib/client-operations.ts), and refuses an operation the
 * generic method could not call as the document declares it.
 */

export type MediaType = 'application/json' | 'application/merge-patch+json'

export interface Operation {
  readonly method: 'GET' | 'PUT' | 'POST' | 'PATCH' | 'DELETE'
  /** As the document writes it (`/pets/{petId}`), under the client's baseUrl. */
  readonly path: string
  /** The path parameters in the order the path names them: the method's first arguments. */
  readonly pathParameters: readonly string[]
  /** The media type the body is sent as (the argument after the path's); null: no body. */
  readonly body: MediaType | null
  /** The body's properties that have a `default` in the document: optional in the argument. */
  readonly defaulted: readonly string[]
  /** Whether the operation declares query parameters (the argument after the body). */
  readonly query: 'none' | 'optional' | 'required'
  /** It declares `Idempotency-Key`: every call sends one, the caller's or a new UUID. */
  readonly idempotencyKey: boolean
  /** It declares an optional `If-Match`: a call sends the one its options give, if any. */
  readonly ifMatch: boolean
  /**
   * A list paged through `Link rel="next"` (it declares a `cursor` query parameter): the
   * method goes through every page, and `<operationId>Page` returns one.
   */
  readonly paged: boolean
  /** What a success answers: a JSON body, or nothing (the method resolves with undefined). */
  readonly answer: 'json' | 'none'
}
