/**
 * Pets in the database. Plain functions taking `db` first; rows become API Pets here.
 */
import { sql, type Kysely } from 'kysely'
import type { components } from '../../../generated/openapi.ts'
import { isPostgres } from '../../database/connect.ts'
import { inTransaction } from '../../database/group-commit.ts'
import type { Database, OrderRow, PetRow } from '../../database/schema.ts'
import { toApiInt } from '../../http/int64.ts'
import { toPage, type Page } from '../../contract/paging.ts'
import { prepare } from '../../database/prepared.ts'
import { changedFields, createdEvent, createdEvents, insertCreated, recordEvents, type CreatedEvent, type CreatedEventsValues } from '../events/outbox.ts'
import { batchPerTurn, eachAlone, MOST_PER_BATCH } from '../../database/batch-per-turn.ts'
import { isDatabaseUnavailable } from '../../database/errors.ts'
import { boundColumns, newPetValues, patchedValues, PET_COLUMNS, PET_PROPERTIES, rowValues, sameValues, toPet, toRow, type PetValues } from './columns.ts'

export { toPet }

type Pet = components['schemas']['Pet']
type NewPet = components['schemas']['NewPet']
type PetStatus = components['schemas']['PetStatus']
type PetPatch = components['schemas']['PetPatch']
type Id = number | bigint

const insertPet = prepare<PetValues, PetRow>((db, param) =>
  db.insertInto('pets')
    .values(boundColumns(param) as never)
    .returningAll())

type CreatedPetsValues = Record<keyof PetValues, unknown[]> & CreatedEventsValues

// PostgreSQL: pets, their `pet.created` events and the events' deliveries in one statement
// (../events/outbox.ts, insertCreated), however many pets: the new rows in the order given.
const insertPetsWithEvents = prepare<CreatedPetsValues, PetRow>((db, param) => ({
  compile: () => insertCreated<PetRow>('pets', PET_PROPERTIES.map((property) => ({ name: PET_COLUMNS[property].column, type: PET_COLUMNS[property].type, values: param(property) })), param).compile(db)
}))

interface NewPetRow { values: PetValues, event: CreatedEvent }

/** PostgreSQL: writes `pets`, each with its event, in one statement; the rows in the same order. */
async function insertPets (db: Kysely<Database>, pets: readonly NewPetRow[]): Promise<PetRow[]> {
  const columns = Object.fromEntries(PET_PROPERTIES.map((property) => [property, pets.map(({ values }) => {
    const value = values[property]
    // An int64 as text: PostgreSQL reads it whole, where a JavaScript number may not hold it.
    return value !== null && PET_COLUMNS[property].type === 'bigint' ? String(value) : value
  })])) as Record<keyof PetValues, unknown[]>
  const { rows } = await insertPetsWithEvents(db, { ...columns, ...createdEvents('pet.created', pets.map((pet) => pet.event)) })
  return rows
}

// PostgreSQL: creates that come together, written together (../../database/batch-per-turn.ts),
// one statement at a time: each carries the creates that came while the one before ran, so a
// flow of creates makes fewer, larger statements, and fewer commits (each a flush of the WAL),
// and leaves the pool's other connections to the reads.
const batchedInserts = new WeakMap<Kysely<Database>, (pet: NewPetRow) => Promise<PetRow>>()

const selectPet = prepare<{ id: Id }, PetRow>((db, param) =>
  db.selectFrom('pets').selectAll().where('id', '=', param('id')))

// PostgreSQL: pets asked for by id while another such read runs, read by one statement once
// their turn of the event loop ends (../../database/batch-per-turn.ts): under load, the
// reads the response cache cannot answer come in bursts (every read of a turn waits for the
// turn's one freshness check), and each separate statement pays a round trip, a bind and
// an execution of its own. The statement starts after each of its reads arrived, so it sees
// every write acknowledged before any of them.
const selectPets = prepare<{ ids: string[] }, PetRow>((db, param) => ({
  compile: () => sql<PetRow>`select * from pets where id = any(cast(${param('ids')} as bigint[]))`.compile(db)
}))

const batchedReads = new WeakMap<Kysely<Database>, (id: Id) => Promise<PetRow | undefined>>()

/** The pet with id `id`, or undefined, read together with the other pets asked for meanwhile. */
function readTogether (db: Kysely<Database>, id: Id): Promise<PetRow | undefined> {
  let read = batchedReads.get(db)
  // A failure (the connection lost, a timeout) fails each read, as it would have alone.
  if (read === undefined) batchedReads.set(db, read = batchPerTurn((ids) => selectPetsById(db, ids), { atOnceWhenIdle: true, most: MOST_PER_BATCH }))
  return read(id)
}

/** The rows of pets `ids`, in their order, undefined where there is none; each id as often as asked. */
async function selectPetsById (db: Kysely<Database>, ids: readonly Id[]): Promise<Array<PetRow | undefined>> {
  const { rows } = await selectPets(db, { ids: ids.map(String) })
  // int8 comes back as text (../../database/postgres.ts).
  const byId = new Map(rows.map((row) => [String(row.id), row]))
  return ids.map((id) => byId.get(String(id)))
}

// PostgreSQL: the row stays locked until the edit commits. FOR UPDATE also blocks the
// foreign key check of an order being placed for the pet (it takes FOR KEY SHARE), so an
// order is either committed before the edit looks for one, or waits until it is done.
const selectPetForUpdate = prepare<{ id: Id }, PetRow>((db, param) =>
  db.selectFrom('pets').selectAll().where('id', '=', param('id')).forUpdate())

const selectOpenOrder = prepare<{ petId: Id }, { id: OrderRow['id'] }>((db, param) =>
  db.selectFrom('orders').select('id').where('pet_id', '=', param('petId')).where('complete', '=', 0).orderBy('id').limit(1))

const updatePetRow = prepare<PetValues & { id: Id }, PetRow>((db, param) =>
  db.updateTable('pets')
    .set(boundColumns(param))
    .where('id', '=', param('id'))
    .returningAll())

const selectPage = prepare<{ afterId: Id, limit: number }, PetRow>((db, param) =>
  db.selectFrom('pets').selectAll()
    .where('id', '>', param('afterId'))
    .orderBy('id').limit(param('limit')))

// Served by the (status, id) index: cost is O(limit) whatever the table size.
const selectPageWithStatus = prepare<{ afterId: Id, limit: number, status: PetStatus }, PetRow>((db, param) =>
  db.selectFrom('pets').selectAll()
    .where('status', '=', param('status'))
    .where('id', '>', param('afterId'))
    .orderBy('id').limit(param('limit')))

// Served by the (category_id, id) index: O(limit), as the status filter.
const selectPageWithCategory = prepare<{ afterId: Id, limit: number, categoryId: Id }, PetRow>((db, param) =>
  db.selectFrom('pets').selectAll()
    .where('category_id', '=', param('categoryId'))
    .where('id', '>', param('afterId'))
    .orderBy('id').limit(param('limit')))

// Served by the (category_id, status, id) index: O(limit) for both filters together.
const selectPageWithCategoryAndStatus = prepare<{ afterId: Id, limit: number, categoryId: Id, status: PetStatus }, PetRow>((db, param) =>
  db.selectFrom('pets').selectAll()
    .where('category_id', '=', param('categoryId'))
    .where('status', '=', param('status'))
    .where('id', '>', param('afterId'))
    .orderBy('id').limit(param('limit')))

/** Adds a pet, and its `pet.created` event in the same transaction. */
export async function createPet (db: Kysely<Database>, pet: NewPet): Promise<Pet> {
  const values = newPetValues(pet)
  // PostgreSQL: one statement (../events/outbox.ts, insertCreated).
  if (isPostgres(db)) {
    // The event's data but the id, which the statement puts in.
    const pet = { values, event: createdEvent(toPet(toRow(0, values))) }
    // Inside a transaction (an idempotent create's), on its own, as part of it.
    if (db.isTransaction) return toPet((await insertPets(db, [pet]))[0]!)
    let insert = batchedInserts.get(db)
    // Run again alone after an error of the data, never after a connection lost or a
    // timeout: the batch may have committed, and its answer only be lost (a 503 each).
    if (insert === undefined) {
      const run = (pets: NewPetRow[]) => insertPets(db, pets)
      batchedInserts.set(db, insert = batchPerTurn(run, { afterFailure: eachAlone(run, (error) => !isDatabaseUnavailable(error)), atOnceWhenIdle: true, oneAtATime: true, most: MOST_PER_BATCH }))
    }
    return toPet(await insert(pet))
  }
  return inTransaction(db, async (db) => {
    const { rows } = await insertPet(db, values)
    const created = toPet(rows[0]!)
    await recordEvents(db, [{ type: 'pet.created', data: created }])
    return created
  })
}

export async function findPet (db: Kysely<Database>, id: Id): Promise<Pet | undefined> {
  const row = isPostgres(db) && !db.isTransaction ? await readTogether(db, id) : (await selectPet(db, { id })).rows[0]
  return row === undefined ? undefined : toPet(row)
}

export type PetUpdate =
  | { outcome: 'updated', pet: Pet }
  | { outcome: 'missing' | 'precondition_failed' }
  /** An open (not complete) order holds the pet, and the patch would change its status. */
  | { outcome: 'held', orderId: Pet['id'] }

/**
 * Applies a merge patch to a pet, in one transaction with its `pet.updated` event: nothing
 * changes unless `precondition` holds for the pet as it is, and its status does not change
 * while an open order holds it. A patch that changes nothing writes nothing.
 */
export function updatePet (db: Kysely<Database>, id: Id, patch: PetPatch, precondition: (current: Pet) => boolean): Promise<PetUpdate> {
  return inTransaction(db, async (trx) => {
    // SQLite has no FOR UPDATE, and needs none: its one writer holds the database.
    const row = (await (isPostgres(trx) ? selectPetForUpdate : selectPet)(trx, { id })).rows[0]
    if (row === undefined) return { outcome: 'missing' }
    const current = toPet(row)
    if (!precondition(current)) return { outcome: 'precondition_failed' }
    const before = rowValues(row)
    const values = patchedValues(before, patch)
    if (values.status !== before.status) {
      const open = (await selectOpenOrder(trx, { petId: id })).rows[0]
      if (open !== undefined) return { outcome: 'held', orderId: toApiInt(open.id) }
    }
    if (sameValues(values, before)) return { outcome: 'updated', pet: current }
    const { rows } = await updatePetRow(trx, { ...values, id })
    const pet = toPet(rows[0]!)
    const previous = changedFields(current, pet)
    if (previous !== undefined) await recordEvents(trx, [{ type: 'pet.updated', data: pet, previous }])
    return { outcome: 'updated', pet }
  })
}

export interface PageQuery {
  limit: number
  status?: PetStatus
  /** Only pets naming this category, whether or not it exists. */
  categoryId?: Id
  /** Only pets with a larger id; 0 for the first page. */
  afterId: Id
}

/** Up to `limit` pets in ascending id order, and whether more follow. */
export async function listPets (db: Kysely<Database>, query: PageQuery): Promise<Page<Pet>> {
  // One row more than asked tells whether a next page exists without a COUNT.
  const values = { afterId: query.afterId, limit: query.limit + 1 }
  const { status, categoryId } = query
  // A prepared query for each combination of filters, each served by an index of its own.
  const { rows } = categoryId === undefined
    ? status === undefined ? await selectPage(db, values) : await selectPageWithStatus(db, { ...values, status })
    : status === undefined
      ? await selectPageWithCategory(db, { ...values, categoryId })
      : await selectPageWithCategoryAndStatus(db, { ...values, categoryId, status })
  return toPage(rows, query.limit, toPet)
}
