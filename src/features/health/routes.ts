/**
 * Probes for orchestrators; public. `/healthz`: the process answers. `/readyz`: the
 * database answers a query too.
 */
import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import { setTimeout as sleep } from 'node:timers/promises'
import { ApiError } from '../../http/error-codes.ts'

/** Orchestrators wait about 2 s for a probe: past this, the database counts as not answering. */
const READY_TIMEOUT_MS = 1500

const schema = { hide: true, response: { 200: { type: 'object', properties: { status: { type: 'string' } } } } }

export default async function health (app: FastifyInstance) {
  // An overloaded process is still alive: /healthz answers even under pressure.
  app.get('/healthz', { schema, config: { pressureHandler: () => undefined } }, async function healthz () {
    return { status: 'ok' }
  })

  app.get('/readyz', { schema }, async function readyz (request) {
    const timeout = new AbortController()
    try {
      await Promise.race([
        sql`select 1`.execute(app.db),
        sleep(READY_TIMEOUT_MS, undefined, { signal: timeout.signal }).then(() => {
          throw new Error(`no answer within ${READY_TIMEOUT_MS} ms`)
        })
      ])
    } catch (error) {
      request.log.warn({ err: error }, 'database is not answering')
      throw new ApiError('unavailable', 'Database is not answering', { 'retry-after': '5' })
    } finally {
      timeout.abort()
    }
    return { status: 'ok' }
  })
}
