/**
 * Store orders in the database. Plain functions taking `db` first; rows become API Orders here.
 */
import type { Kysely } from 'kysely'
import type { components } from '../../../generated/openapi.ts'
import { isForeignKeyViolation } from '../../database/errors.ts'
import { write } from '../../database/group-commit.ts'
import type { Database, OrderRow } from '../../database/schema.ts'
import { toApiInt } from '../../http/int64.ts'
import { toPage } from '../../contract/paging.ts'
import { prepare } from '../../database/prepared.ts'

type Order = components['schemas']['Order']
type NewOrder = components['schemas']['NewOrder']
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
const deleteOpenOrder = prepare<{ id: Id }, { id: OrderRow['id'] }>((db, param) =>
  db.deleteFrom('orders').where('id', '=', param('id')).where('complete', '=', 0).returning('id'))

const selectOrder = prepare<{ id: Id }, OrderRow>((db, param) =>
  db.selectFrom('orders').selectAll().where('id', '=', param('id')))

/** The placed order; undefined when `petId` names no pet. */
export async function placeOrder (db: Kysely<Database>, order: NewOrder): Promise<Order | undefined> {
  try {
    const { rows } = await write(db, (db) => insertOrder(db, {
      petId: order.petId,
      // The document's defaults, applied by validation.
      quantity: order.quantity!,
      shipDate: order.shipDate ?? null,
      complete: order.complete === true ? 1 : 0
    }))
    return toOrder(rows[0]!)
  } catch (error) {
    if (isForeignKeyViolation(error)) return undefined
    throw error
  }
}

/** Up to `limit` orders in ascending id order, and whether more follow. */
export async function listOrders (db: Kysely<Database>, query: { limit: number, afterId: Id }): Promise<{ items: Order[], more: boolean }> {
  const { rows } = await selectPage(db, { afterId: query.afterId, limit: query.limit + 1 })
  return toPage(rows, query.limit, toOrder)
}

/** Cancels (deletes) an order that is not complete, and says what happened. */
export function cancelOrder (db: Kysely<Database>, id: Id): Promise<'cancelled' | 'complete' | 'missing'> {
  return write(db, async (db) => {
    if ((await deleteOpenOrder(db, { id })).rows.length > 0) return 'cancelled'
    return (await selectOrder(db, { id })).rows.length > 0 ? 'complete' : 'missing'
  })
}
