/**
 * `petstore-service/client`, kept for the imports written before the client became its own
 * package: everything `petstore-client` (client/) exports, as it exports it. New code
 * imports `petstore-client`.
 */
export * from 'petstore-client'
