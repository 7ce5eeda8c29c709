/**
 * Pets in the database. Plain functions taking `db` first; rows become API Pets here.
 */
import type { Kysely } from 'kysely'
import type { components } from '../../../generated/openapi.ts'
import { write } from '../../database/group-commit.ts'
import type { Database, PetRow } from '../../database/schema.ts'
import { toApiInt } from '../../http/int64.ts'
import { toPage } from '../../contract/paging.ts'
import { prepare } from '../../database/prepared.ts'

type Pet = components['schemas']['Pet']
type NewPet = components['schemas']['NewPet']
type PetStatus = components['schemas']['PetStatus']
type Id = number | bigint

export function toPet (row: PetRow): Pet {
  const pet: Pet = { id: toApiInt(row.id), name: row.name, categoryId: toApiInt(row.category_id) }
  // No status is a missing key, never `null` (the Pet schema has no null).
  if (row.status !== null) pet.status = row.status
  return pet
}

const insertPet = prepare<{ name: string, categoryId: Id, status: PetStatus | null }, PetRow>((db, param) =>
  db.insertInto('pets')
    .values({ name: param('name'), category_id: param('categoryId'), status: param('status') })
    .returningAll())

const selectPet = prepare<{ id: Id }, PetRow>((db, param) =>
  db.selectFrom('pets').selectAll().where('id', '=', param('id')))

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

export async function createPet (db: Kysely<Database>, pet: NewPet): Promise<Pet> {
  const { rows } = await write(db, (db) => insertPet(db, { name: pet.name, categoryId: pet.categoryId, status: pet.status ?? null }))
  return toPet(rows[0]!)
}

export async function findPet (db: Kysely<Database>, id: Id): Promise<Pet | undefined> {
  const { rows } = await selectPet(db, { id })
  return rows[0] === undefined ? undefined : toPet(rows[0])
}

export interface PageQuery {
  limit: number
  status?: PetStatus
  /** Only pets with a larger id; 0 for the first page. */
  afterId: Id
}

/** Up to `limit` pets in ascending id order, and whether more follow. */
export async function listPets (db: Kysely<Database>, query: PageQuery): Promise<{ items: Pet[], more: boolean }> {
  // One row more than asked tells whether a next page exists without a COUNT.
  const values = { afterId: query.afterId, limit: query.limit + 1 }
  const { rows } = query.status === undefined
    ? await selectPage(db, values)
    : await selectPageWithStatus(db, { ...values, status: query.status })
  return toPage(rows, query.limit, toPet)
}
