/**
 * Safe retries (the IETF Idempotency-Key draft, as Stripe does it), as the `idempotency`
 * decorator that ./idempotent.ts puts around every operation declaring the
 * `Idempotency-Key` header.
 *
 * The first answer to a key is kept 24 hours, scoped to the calling API key, written in the
 * same transaction as the record it created: a crash leaves both or neither. A retry with
 * the same request gets that answer again; with another request, 422; while the first is
 * still running, 409. "Still running" is known in this process from the keys in flight,
 * and across instances on PostgreSQL from an advisory lock held by the create's
 * transaction (so it ends with it, crash included). On SQLite one process owns the file.
 * A request that fails keeps nothing: its transaction rolls back.
 * @see https://datatracker.ietf.org/doc/draft-ietf-httpapi-idempotency-key-header/
 */
import { hash } from 'node:crypto'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { sql, type Kysely } from 'kysely'
import { stringify } from 'lossless-json'
import type { IdempotencySettings } from '../../config/settings.ts'
import { poolOf } from '../../database/connect.ts'
import { inTransaction } from '../../database/group-commit.ts'
import type { Database } from '../../database/schema.ts'
import { ApiError } from '../../http/error-codes.ts'
import { deleteExpiredAnswers, findKeptAnswer, keepAnswer } from './repository.ts'

export interface Answer { status: number, body: string }

export interface Idempotency {
  /**
   * Runs `create` once for the request's Idempotency-Key, inside a transaction that
   * `request.db` is while it runs; answers its result, or the kept one with `replayed`.
   */
  run: (request: FastifyRequest, key: string, requestHash: string, create: () => Promise<Answer>) => Promise<Answer & { replayed: boolean }>
}

declare module 'fastify' {
  interface FastifyInstance {
    idempotency: Idempotency
  }
  interface FastifyRequest {
    /** The database for this request's writes: the idempotent create's transaction, or `app.db`. */
    db: Kysely<Database>
    idempotencyTransaction: Kysely<Database> | null
  }
}

/** Sorts object keys at every depth, so the same JSON value always gives the same text. */
function canonical (value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical)
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.keys(value).sort().map((key) => [key, canonical((value as Record<string, unknown>)[key])]))
}

/**
 * What makes two requests "the same": the operation, its path parameters and the body as a
 * JSON value (defaults applied). Without the parameters, one endpoint's `rotate-secret`
 * would replay another's answer. An operation without path parameters hashes as it did
 * before they counted, so the answers kept then still replay.
 */
export function requestHash (operationId: string, params: Record<string, unknown>, body: unknown): string {
  const path = Object.keys(params).length === 0 ? '' : `${stringify(canonical(params)) as string}\n`
  return hash('sha256', `${operationId}\n${path}${stringify(canonical(body)) as string}`, 'hex')
}

const inUse = () => new ApiError('idempotency_key_in_use', 'A request with this Idempotency-Key is still running; retry after it finishes')
const reused = () => new ApiError('idempotency_key_reused', 'This Idempotency-Key was used for a different request; use a new key for a new request')

export default fp(async function idempotency (app: FastifyInstance, { ttlMs, cleanupIntervalMs }: IdempotencySettings) {
  const postgres = poolOf(app.db) !== undefined
  const inFlight = new Set<string>()

  app.decorateRequest('idempotencyTransaction', null)
  app.decorateRequest('db', {
    getter (this: FastifyRequest) { return this.idempotencyTransaction ?? this.server.db }
  })

  async function run (request: FastifyRequest, key: string, hashOfRequest: string, create: () => Promise<Answer>) {
    const apiKeyHash = app.auth.key(request)!.hash
    const scope = hash('sha256', `${apiKeyHash}\n${key}`, 'hex')
    if (inFlight.has(scope)) throw inUse()
    inFlight.add(scope)
    try {
      // On SQLite, a savepoint of the next group commit (../../database/group-commit.ts).
      return await inTransaction(app.db, async (trx) => {
        if (postgres) {
          // Held until this transaction ends, on whichever instance runs it.
          const lock = BigInt.asIntN(64, BigInt(`0x${scope.slice(0, 16)}`))
          const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_xact_lock(cast(${String(lock)} as bigint)) as locked`.execute(trx)
          if (rows[0]?.locked !== true) throw inUse()
        }
        const now = Date.now()
        const kept = await findKeptAnswer(trx, apiKeyHash, key, now)
        if (kept !== undefined) {
          if (kept.requestHash !== hashOfRequest) throw reused()
          return { status: kept.status, body: kept.body, replayed: true }
        }
        request.idempotencyTransaction = trx
        const answer = await create()
        await keepAnswer(trx, apiKeyHash, key, { requestHash: hashOfRequest, ...answer }, now + ttlMs)
        return { ...answer, replayed: false }
      })
    } finally {
      request.idempotencyTransaction = null
      inFlight.delete(scope)
    }
  }

  // Off the request path: expired answers go by a range of the expires_at index.
  const timer = setInterval(() => {
    deleteExpiredAnswers(app.db, Date.now())
      .catch((error: unknown) => app.log.warn({ err: error }, 'could not delete expired idempotency keys'))
  }, cleanupIntervalMs).unref()
  app.addHook('onClose', async () => { clearInterval(timer) })
  app.decorate('idempotency', { run } satisfies Idempotency)
}, { name: 'idempotency', dependencies: ['database', 'auth'] })
