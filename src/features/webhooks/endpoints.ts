/**
 * Webhook endpoints in the database. Rows become API endpoints here, never with a secret:
 * the secrets are stored sealed (./sealing.ts) and only the dispatcher opens them.
 */
import { sql, type Kysely, type Selectable, type Updateable } from 'kysely'
import type { components } from '../../../generated/openapi.ts'
import { isPostgres } from '../../database/connect.ts'
import { inTransaction } from '../../database/group-commit.ts'
import { prepare } from '../../database/prepared.ts'
import type { Database } from '../../database/schema.ts'
import { toApiInt } from '../../http/int64.ts'
import { toPage, type Page } from '../../contract/paging.ts'
import { endPendingDeliveries } from './deliveries.ts'

export type WebhookEndpoint = components['schemas']['WebhookEndpoint']
type Selection = components['schemas']['WebhookEventSelection']
export type EndpointRow = Selectable<Database['webhook_endpoints']>
type Id = number | bigint

export function toEndpoint (row: EndpointRow): WebhookEndpoint {
  const endpoint: WebhookEndpoint = {
    id: toApiInt(row.id),
    url: row.url,
    events: JSON.parse(row.events) as Selection[],
    enabled: Number(row.enabled) === 1,
    createdAt: row.created_at
  }
  // No description is a missing key, never `null`, as for a pet's status.
  if (row.description !== null) endpoint.description = row.description
  return endpoint
}

export interface NewEndpoint {
  url: string
  events: Selection[]
  description: string | null
  /** The secret, sealed. */
  secret: string
  createdAt: string
}

const selectEndpoint = prepare<{ id: Id }, EndpointRow>((db, param) =>
  db.selectFrom('webhook_endpoints').selectAll().where('id', '=', param('id')))

const selectPage = prepare<{ afterId: Id, limit: number }, EndpointRow>((db, param) =>
  db.selectFrom('webhook_endpoints').selectAll().where('id', '>', param('afterId')).orderBy('id').limit(param('limit')))

async function subscribe (db: Kysely<Database>, id: Id, events: readonly Selection[]): Promise<void> {
  await db.insertInto('webhook_subscriptions').values(events.map((selection) => ({ selection, endpoint_id: id }))).execute()
}

/**
 * Adds an endpoint, enabled, with its subscriptions; 'full' when there are `maxEndpoints`
 * already. Counted in the transaction that adds it, with other adds kept out on PostgreSQL
 * (SQLite has one writer), so that instances adding at once never pass the limit.
 */
export function createEndpoint (db: Kysely<Database>, endpoint: NewEndpoint, maxEndpoints: number): Promise<WebhookEndpoint | 'full'> {
  return inTransaction(db, async (trx) => {
    if (isPostgres(trx)) await sql`lock table webhook_endpoints in share row exclusive mode`.execute(trx)
    const { count } = await trx.selectFrom('webhook_endpoints').select((eb) => eb.fn.countAll().as('count')).executeTakeFirstOrThrow()
    if (Number(count) >= maxEndpoints) return 'full'
    const row = await trx.insertInto('webhook_endpoints').values({
      url: endpoint.url,
      events: JSON.stringify(endpoint.events),
      description: endpoint.description,
      enabled: 1,
      created_at: endpoint.createdAt,
      secret: endpoint.secret
    }).returningAll().executeTakeFirstOrThrow()
    await subscribe(trx, toApiInt(row.id), endpoint.events)
    return toEndpoint(row)
  })
}

export async function findEndpoint (db: Kysely<Database>, id: Id): Promise<EndpointRow | undefined> {
  return (await selectEndpoint(db, { id })).rows[0]
}

/** Up to `limit` endpoints after `afterId`, in ascending id order, and whether more follow. */
export async function listEndpoints (db: Kysely<Database>, query: { afterId: Id, limit: number }): Promise<Page<WebhookEndpoint>> {
  const { rows } = await selectPage(db, { afterId: query.afterId, limit: query.limit + 1 })
  return toPage(rows, query.limit, toEndpoint)
}

export type EndpointPatch = components['schemas']['WebhookEndpointPatch']

/**
 * Applies a merge patch (a new `url` already checked). Disabling the endpoint ends its
 * pending deliveries; enabling it again starts its failure count afresh. Undefined when
 * there is no such endpoint.
 */
export function updateEndpoint (db: Kysely<Database>, id: Id, patch: EndpointPatch, now: Date): Promise<WebhookEndpoint | undefined> {
  return inTransaction(db, async (trx) => {
    const row = (await selectEndpoint(trx, { id })).rows[0]
    if (row === undefined) return undefined
    const wasEnabled = Number(row.enabled) === 1
    const enabled = patch.enabled ?? wasEnabled
    const changes: Updateable<Database['webhook_endpoints']> = {}
    if (patch.url !== undefined) changes.url = patch.url
    if (patch.description !== undefined) changes.description = patch.description
    if (patch.events !== undefined) changes.events = JSON.stringify(patch.events)
    if (enabled !== wasEnabled) {
      changes.enabled = enabled ? 1 : 0
      changes.failing_since = null
    }
    if (Object.keys(changes).length === 0) return toEndpoint(row)
    const updated = await trx.updateTable('webhook_endpoints').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
    if (patch.events !== undefined) {
      await trx.deleteFrom('webhook_subscriptions').where('endpoint_id', '=', id).execute()
      await subscribe(trx, id, patch.events)
    }
    if (wasEnabled && !enabled) await endPendingDeliveries(trx, id, now)
    return toEndpoint(updated)
  })
}

/** Removes an endpoint, its subscriptions and its deliveries; false when there is none. */
export async function deleteEndpoint (db: Kysely<Database>, id: Id): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    const { numDeletedRows } = await trx.deleteFrom('webhook_endpoints').where('id', '=', id).executeTakeFirst()
    return numDeletedRows > 0n
  })
}

/**
 * Gives the endpoint the sealed secret `secret`; its current one signs too until
 * `previousUntil` (none: it stops at once), unless `readable` says it can no longer be
 * opened: a secret that cannot sign is not kept. A secret older than the current one stops
 * now. Answers until when the current one is kept, or false when there is no such endpoint.
 */
export async function rotateSecret (db: Kysely<Database>, id: Id, secret: string, previousUntil: Date | undefined,
  readable: (sealed: string) => Promise<boolean>): Promise<{ previousUntil: Date | undefined } | false> {
  return inTransaction(db, async (trx) => {
    const row = (await selectEndpoint(trx, { id })).rows[0]
    if (row === undefined) return false
    const keptUntil = previousUntil !== undefined && await readable(row.secret) ? previousUntil : undefined
    await trx.updateTable('webhook_endpoints').set({
      secret,
      previous_secret: keptUntil === undefined ? null : row.secret,
      previous_secret_expires_at: keptUntil?.toISOString() ?? null
    }).where('id', '=', id).execute()
    return { previousUntil: keptUntil }
  })
}

/**
 * Gives every endpoint a new secret, `seal` sealing it, with no grace for the old ones
 * (`rotate-secrets --all`, ./command.ts): they may be sealed with a key that is lost.
 * Answers each endpoint's id, URL and new secret, in id order.
 */
export async function rotateEverySecret (db: Kysely<Database>, newSecret: () => string, seal: (secret: string) => string): Promise<Array<{ id: Id, url: string, secret: string }>> {
  return inTransaction(db, async (trx) => {
    const rows = await trx.selectFrom('webhook_endpoints').select(['id', 'url']).orderBy('id').execute()
    const rotated = []
    for (const row of rows) {
      const secret = newSecret()
      await trx.updateTable('webhook_endpoints').set({ secret: seal(secret), previous_secret: null, previous_secret_expires_at: null })
        .where('id', '=', row.id).execute()
      rotated.push({ id: toApiInt(row.id), url: row.url, secret })
    }
    return rotated
  })
}

/**
 * The ids of the keys the endpoints' secrets were sealed with, and their previous secrets
 * that still sign (an expired one is never opened): what the start checks the configured key
 * against (./secrets-key.ts). Read from the sealed form's prefix (`v1:<key id>:`), one row a
 * key, from a table of one row an endpoint. A secret not in that form is left to fail its
 * deliveries (`secret_unreadable`): it says nothing of the key.
 */
export async function sealingKeyIds (db: Kysely<Database>, now: Date): Promise<string[]> {
  const { rows } = await sql<{ prefix: string }>`select substr(secret, 1, 20) as prefix from webhook_endpoints
    union select substr(previous_secret, 1, 20) from webhook_endpoints
    where previous_secret is not null and previous_secret_expires_at > ${now.toISOString()}`.execute(db)
  return rows.flatMap(({ prefix }) => /^v1:([0-9a-f]{16}):$/.exec(prefix)?.[1] ?? []).sort()
}
