/**
 * Who sends a webhook delivery: the `User-Agent` of every attempt
 * (../features/webhooks/attempt.ts), by which tracing leaves attempts to their own span
 * (./sdk.ts). Kept here, not in the feature: tracing loads before the service, and imports
 * no feature.
 */
export const WEBHOOK_USER_AGENT = 'petstore-webhooks/1'
