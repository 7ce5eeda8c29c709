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
import { changedFields, createdEvent, createdEvents, createdEventsInput, recordCreated, recordEvents, type CreatedEvent, type CreatedEventsValues } from '../events/outbox.ts'
import { deliveriesOfCreated } from '../webhooks/subscribers.ts'
import { batchPerTurn } from '../../database/batch-per-turn.ts'
import { isDatabaseUnavailable } from '../../database/errors.ts'

type Pet = components['schemas']['Pet']
type NewPet = components['schemas']['NewPet']
type PetStatus = components['schemas']['PetStatus']
type PetPatch = components['schemas']['PetPatch']
type Id = number | bigint

export function toPet (row: PetRow): Pet {
  const pet: Pet = { id: toApiInt(row.id), name: row.name, categoryId: toApiInt(row.category_id) }
  // No status is a missing key, never `null` (the Pet schema has no null).
  if (row.status !== null) pet.status = row.status
  return pet
}

type PetValues = { name: string, categoryId: Id, status: PetStatus | null }

const insertPet = prepare<PetValues, PetRow>((db, param) =>
  db.insertInto('pets')
    .values({ name: param('name'), category_id: param('categoryId'), status: param('status') })
    .returningAll())

type CreatedPetsValues = { names: string[], categoryIds: string[], statuses: Array<PetStatus | null> } & CreatedEventsValues

// PostgreSQL: pets, their `pet.created` events and the events' deliveries in one statement
// (../events/outbox.ts, recordCreated), however many pets: the new rows in the order given.
// The ids go up in the order the rows are inserted, so their rank by id is their place.
const insertPetsWithEvents = prepare<CreatedPetsValues, PetRow>((db, param) => ({
  compile: () => sql<PetRow>`with input as (select * from unnest(cast(${param('names')} as text[]),
      cast(${param('categoryIds')} as bigint[]), cast(${param('statuses')} as text[])) with ordinality as input (name, category_id, status, n)),
    event_input as ${createdEventsInput(param)},
    created as (insert into pets (name, category_id, status) select name, category_id, status from input order by n returning *),
    numbered as (select created.*, row_number() over (order by created.id) as n from created),
    recorded as ${recordCreated(param)},
    delivered as ${deliveriesOfCreated(param)}
    select id, name, category_id, status from numbered order by n`.compile(db)
}))

interface NewPetRow { values: PetValues, event: CreatedEvent }

/** PostgreSQL: writes `pets`, each with its event, in one statement; the rows in the same order. */
async function insertPets (db: Kysely<Database>, pets: readonly NewPetRow[]): Promise<PetRow[]> {
  const { rows } = await insertPetsWithEvents(db, {
    names: pets.map((pet) => pet.values.name),
    categoryIds: pets.map((pet) => String(pet.values.categoryId)),
    statuses: pets.map((pet) => pet.values.status),
    ...createdEvents('pet.created', pets.map((pet) => pet.event))
  })
  return rows
}

// PostgreSQL: creates that come together, written together (../../database/batch-per-turn.ts).
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
  if (read === undefined) batchedReads.set(db, read = batchPerTurn((ids) => selectPetsById(db, ids), () => false))
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

const updatePetRow = prepare<{ id: Id, name: string, categoryId: PetRow['category_id'], status: PetStatus | null }, PetRow>((db, param) =>
  db.updateTable('pets')
    .set({ name: param('name'), category_id: param('categoryId'), status: param('status') })
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

/** Adds a pet, and its `pet.created` event in the same transaction. */
export async function createPet (db: Kysely<Database>, pet: NewPet): Promise<Pet> {
  const values = { name: pet.name, categoryId: pet.categoryId, status: pet.status ?? null }
  // PostgreSQL: one statement (../events/outbox.ts, recordCreated).
  if (isPostgres(db)) {
    const pet = { values, event: createdEvent(toPet({ id: 0, name: values.name, category_id: values.categoryId, status: values.status })) }
    // Inside a transaction (an idempotent create's), on its own, as part of it.
    if (db.isTransaction) return toPet((await insertPets(db, [pet]))[0]!)
    let insert = batchedInserts.get(db)
    // Run again alone after an error of the data, never after a connection lost or a
    // timeout: the batch may have committed, and its answer only be lost (a 503 each).
    if (insert === undefined) batchedInserts.set(db, insert = batchPerTurn((pets) => insertPets(db, pets), (error) => !isDatabaseUnavailable(error)))
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
    const status = patch.status === undefined ? row.status : patch.status
    if (status !== row.status) {
      const open = (await selectOpenOrder(trx, { petId: id })).rows[0]
      if (open !== undefined) return { outcome: 'held', orderId: toApiInt(open.id) }
    }
    const name = patch.name ?? row.name
    const categoryId = patch.categoryId ?? row.category_id
    if (name === row.name && String(categoryId) === String(row.category_id) && status === row.status) return { outcome: 'updated', pet: current }
    const { rows } = await updatePetRow(trx, { id, name, categoryId, status })
    const pet = toPet(rows[0]!)
    const previous = changedFields(current, pet)
    if (previous !== undefined) await recordEvents(trx, [{ type: 'pet.updated', data: pet, previous }])
    return { outcome: 'updated', pet }
  })
}

export interface PageQuery {
  limit: number
  status?: PetStatus
  /** Only pets with a larger id; 0 for the first page. */
  afterId: Id
}

/** Up to `limit` pets in ascending id order, and whether more follow. */
export async function listPets (db: Kysely<Database>, query: PageQuery): Promise<Page<Pet>> {
  // One row more than asked tells whether a next page exists without a COUNT.
  const values = { afterId: query.afterId, limit: query.limit + 1 }
  const { rows } = query.status === undefined
    ? await selectPage(db, values)
    : await selectPageWithStatus(db, { ...values, status: query.status })
  return toPage(rows, query.limit, toPet)
}
