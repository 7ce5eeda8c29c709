/**
 * `petstore-service/client`: a typed client for the petstore service, for consumers of
 * the package (plain JavaScript or TypeScript). It imports nothing of the server (no
 * Fastify, no database): only openapi-fetch, lossless-json and the generated types.
 */
export { createPetstoreClient } from './client.ts'
export { PetstoreError, type ErrorCode, type PetstoreErrorCode } from './errors.ts'
export type { Page } from './paging.ts'
export type { Fetch, RetryOptions } from './retry.ts'
export type * from './types.ts'
