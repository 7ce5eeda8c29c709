/**
 * Store orders in the database. Plain functions taking `db` first; rows become API Orders here.
 *
 * An order moves its pet (docs/decisions.md#pet-lifecycle), always in the transaction of the
 * order write: placing one reserves an `available` pet, completing one sells it, cancelling
 * an open one puts it back on sale. Who wins a pet is decided by the database, by one
 * conditional update whose row count says whether the pet was still `available`: SQLite runs
 * one writer at a time, and on PostgreSQL a concurrent update of the same row waits for the
 * first transaction, then re-checks its WHERE against the committed row.
 *
 * Each write records its events in its transaction (../events/outbox.ts): the order's, then
 * its pet's `pet.updated` when the pet moved.
 */
import { sql, type Kysely } from 'kysely'
import type { components } from '../../../generated/openapi.ts'
import { inTransaction } from '../../database/group-commit.ts'
import type { Database, OrderRow, PetRow } from '../../database/schema.ts'
import { toApiInt } from '../../http/int64.ts'
import { toPage, type Page } from '../../contract/paging.ts'
import { prepare } from '../../database/prepared.ts'
import { changedFields, recordEvents, type NewEvent } from '../events/outbox.ts'
import { toPet } from '../pets/repository.ts'

type Order = components['schemas']['Order']
type NewOrder = components['schemas']['NewOrder']
type OrderPatch = components['schemas']['OrderPatch']
type PetStatus = components['schemas']['PetStatus']
type Id = number | bigint

export function toOrder (row: OrderRow): Order {
  const order: Order = { id: toApiInt(row.id), petId: toApiInt(row.pet_id), quantity: Number(row.quantity), complete: Number(row.complete) === 1 }
  // No ship date is a missing key, never `null` (the Order schema has no null).
  if (row.ship_date !== null) order.shipDate = row.ship_date
  return order
}

const insertOrder = prepare<{ petId: Id, quantity: number, shipDate: string | null, complete: number }, OrderRow>((db, param) =>
  db.insertInto('orders')
    .values({ pet_id: param('petId'), quantity: param('quantity'), ship_date: param('shipDate'), complete: param('complete') })
    .returningAll())

const selectPage = prepare<{ afterId: Id, limit: number }, OrderRow>((db, param) =>
  db.selectFrom('orders').selectAll()
    .where('id', '>', param('afterId'))
    .orderBy('id').limit(param('limit')))

// Only an order that is not complete can go; one statement, so two cancels cannot both win.
const deleteOpenOrder = prepare<{ id: Id }, OrderRow>((db, param) =>
  db.deleteFrom('orders').where('id', '=', param('id')).where('complete', '=', 0).returningAll())

const selectOrder = prepare<{ id: Id }, OrderRow>((db, param) =>
  db.selectFrom('orders').selectAll().where('id', '=', param('id')))

// The pet goes to the first order only: a row count of 0 means it was not `available`.
const reservePet = prepare<{ id: Id, status: PetStatus }, PetRow>((db, param) =>
  db.updateTable('pets').set({ status: param('status') })
    .where('id', '=', param('id')).where('status', '=', 'available')
    .returningAll())

const selectPetStatus = prepare<{ id: Id }, { status: string | null }>((db, param) =>
  db.selectFrom('pets').select('status').where('id', '=', param('id')))

// Back on sale only from `pending`: the status the open order gave it.
const releasePet = prepare<{ id: Id }, PetRow>((db, param) =>
  db.updateTable('pets').set({ status: 'available' })
    .where('id', '=', param('id')).where('status', '=', 'pending')
    .returningAll())

const sellPet = prepare<{ id: Id }, PetRow>((db, param) =>
  db.updateTable('pets').set({ status: 'sold' }).where('id', '=', param('id')).returningAll())

// A write that changes nothing, to hold the order's row for the rest of the transaction:
// on PostgreSQL a concurrent cancel or patch of the order waits until this one ends.
const holdOrder = prepare<{ id: Id }, OrderRow>((db, param) =>
  db.updateTable('orders').set({ complete: sql<number>`complete` })
    .where('id', '=', param('id')).returningAll())

export type Placed =
  | { outcome: 'placed', order: Order }
  | { outcome: 'no-pet' }
  | { outcome: 'unavailable', status: string | null }

/** Places the order if its pet is `available` at this instant, and moves the pet; else says why not. */
export function placeOrder (db: Kysely<Database>, order: NewOrder): Promise<Placed> {
  const complete = order.complete === true
  return inTransaction(db, async (db): Promise<Placed> => {
    const reserved = await reservePet(db, { id: order.petId, status: complete ? 'sold' : 'pending' })
    if (reserved.rows.length === 0) {
      // Nothing written: why the pet could not be had, read in the same transaction.
      const pet = (await selectPetStatus(db, { id: order.petId })).rows[0]
      return pet === undefined ? { outcome: 'no-pet' } : { outcome: 'unavailable', status: pet.status }
    }
    const { rows } = await insertOrder(db, {
      petId: order.petId,
      // The document's defaults, applied by validation.
      quantity: order.quantity!,
      shipDate: order.shipDate ?? null,
      complete: complete ? 1 : 0
    })
    const placed = toOrder(rows[0]!)
    await recordEvents(db, [
      { type: 'order.placed', data: placed },
      { type: 'pet.updated', data: toPet(reserved.rows[0]!), previous: { status: 'available' } }
    ])
    return { outcome: 'placed', order: placed }
  })
}

export async function findOrder (db: Kysely<Database>, id: Id): Promise<Order | undefined> {
  const { rows } = await selectOrder(db, { id })
  return rows[0] === undefined ? undefined : toOrder(rows[0])
}

/** Up to `limit` orders in ascending id order, and whether more follow. */
export async function listOrders (db: Kysely<Database>, query: { limit: number, afterId: Id }): Promise<Page<Order>> {
  const { rows } = await selectPage(db, { afterId: query.afterId, limit: query.limit + 1 })
  return toPage(rows, query.limit, toOrder)
}

/**
 * Applies a merge patch to an order: the changed order, or why not. Completing it sells its
 * pet in the same transaction; `complete: false` on a complete order is refused.
 */
export function updateOrder (db: Kysely<Database>, id: Id, patch: OrderPatch): Promise<Order | 'missing' | 'complete'> {
  return inTransaction(db, async (db) => {
    const current = (await holdOrder(db, { id })).rows[0]
    if (current === undefined) return 'missing'
    const wasComplete = Number(current.complete) === 1
    if (patch.complete === false && wasComplete) return 'complete'
    const completing = patch.complete === true && !wasComplete
    const changes: { ship_date?: string | null, complete?: number } = {}
    if (patch.shipDate !== undefined) changes.ship_date = patch.shipDate
    if (completing) changes.complete = 1
    if (Object.keys(changes).length === 0) return toOrder(current)
    const row = await db.updateTable('orders').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
    const updated = toOrder(row)
    const previous = changedFields(toOrder(current), updated)
    // The same ship date again changes nothing, and makes no event.
    if (previous !== undefined) await recordEvents(db, [{ type: 'order.updated', data: updated, previous }, ...completing ? await sold(db, row.pet_id) : []])
    return updated
  })
}

/** Sells the pet of an order being completed: its `pet.updated`, unless it was sold already. */
async function sold (db: Kysely<Database>, petId: OrderRow['pet_id']): Promise<NewEvent[]> {
  const before = (await selectPetStatus(db, { id: toApiInt(petId) })).rows[0]
  if (before === undefined || before.status === 'sold') return []
  const pet = (await sellPet(db, { id: toApiInt(petId) })).rows[0]!
  return [{ type: 'pet.updated', data: toPet(pet), previous: { status: before.status } }]
}

/** Cancels (deletes) an order that is not complete, puts its pet back on sale, and says what happened. */
export function cancelOrder (db: Kysely<Database>, id: Id): Promise<'cancelled' | 'complete' | 'missing'> {
  return inTransaction(db, async (db) => {
    const cancelled = (await deleteOpenOrder(db, { id })).rows[0]
    if (cancelled !== undefined) {
      const released = (await releasePet(db, { id: toApiInt(cancelled.pet_id) })).rows[0]
      await recordEvents(db, [
        { type: 'order.cancelled', data: toOrder(cancelled) },
        ...released === undefined ? [] : [{ type: 'pet.updated' as const, data: toPet(released), previous: { status: 'pending' } }]
      ])
      return 'cancelled'
    }
    return (await selectOrder(db, { id })).rows.length > 0 ? 'complete' : 'missing'
  })
}
