/**
 * Probes for orchestrators; public. `/healthz`: the process answers. `/readyz`: the
 * database answers a query too.
 */
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { ApiError } from '../errors.ts'

const schema = { hide: true, response: { 200: { type: 'object', properties: { status: { type: 'string' } } } } }

export default async function health (app: FastifyInstance) {
  // An overloaded process is still alive: /healthz answers even under pressure.
  app.get('/healthz', { schema, config: { pressureHandler: () => undefined } }, async function healthz () {
    return { status: 'ok' }
  })

  app.get('/readyz', { schema }, async function readyz (request) {
    try {
      await sql`select 1`.execute(app.db)
    } catch (error) {
      request.log.warn({ err: error }, 'database is not answering')
      throw new ApiError('unavailable', 'Database is not answering', { 'retry-after': '5' })
    }
    return { status: 'ok' }
  })
}
