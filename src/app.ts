/**
 * buildApp: registers the plugins, then the routes. It never listens (see server.ts), so
 * tests drive it with `inject()`.
 */
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { DatabaseOptions } from './database/connect.ts'
import type { Clock } from './deprecation.ts'
import { ApiError } from './errors.ts'
import apiKeys from './plugins/api-keys.ts'
import database from './plugins/database.ts'
import docs from './plugins/docs.ts'
import errors, { sendError } from './plugins/errors.ts'
import validation from './plugins/validation.ts'
import health from './routes/health.ts'
import v1 from './routes/v1.ts'

export interface AppOptions {
  database: DatabaseOptions
  /** Keys accepted besides those in the database. */
  apiKeys?: readonly string[]
  /** Largest accepted request body, in bytes. */
  bodyLimit?: number
  /** The clock deprecation sunsets are checked against; tests move it. */
  now?: Clock
  logger?: FastifyServerOptions['logger']
}

export const DEFAULT_BODY_LIMIT = 16 * 1024

export async function buildApp (options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT,
    // Errors raised before routing (a malformed URL) get the Error body too.
    frameworkErrors (error, _request, reply) {
      sendError(reply, new ApiError('invalid_request', error.message))
    }
  })
  await app.register(errors)
  await app.register(validation)
  await app.register(database, options.database)
  await app.register(apiKeys, { environmentKeys: options.apiKeys ?? [] })
  await app.register(docs)
  await app.register(health)
  await app.register(v1, { prefix: '/v1', now: options.now ?? (() => new Date()) })
  return app
}
