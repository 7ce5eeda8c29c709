/**
 * `petstore-client`: a typed client for the petstore service, for plain JavaScript or
 * TypeScript. It imports nothing of the server (no Fastify, no database): only
 * openapi-fetch, lossless-json (bundled into the build) and the generated types.
 */
export { createPetstoreClient } from './client.ts'
export { PetstoreError, type ErrorCode, type PetstoreErrorCode } from './errors.ts'
export type { Page } from './paging.ts'
export { verifyWebhook, WebhookVerificationError, type VerifyOptions, type WebhookHeaders } from './webhooks.ts'
export type { Fetch, RetryOptions } from './retry.ts'
export type * from './types.ts'
