/**
 * The stored properties of a pet and their columns: the one list the repository's writes
 * (the insert on each database, the update and its "nothing changed" comparison) and its
 * reads (`toPet`) are built from. A property the document adds to `Pet` fails to compile
 * here until it has its column.
 */
import type { components } from '../../../generated/openapi.ts'
import type { PetRow } from '../../database/schema.ts'
import { toApiInt } from '../../http/int64.ts'

type Pet = components['schemas']['Pet']
type NewPet = components['schemas']['NewPet']
type PetPatch = components['schemas']['PetPatch']

/** Every property of `Pet` but its id, which the database assigns. */
export type PetProperty = Exclude<keyof Pet, 'id'>

interface Column {
  column: Exclude<keyof PetRow, 'id'>
  /** Its type in PostgreSQL; a `bigint` is an int64 of the API (../../http/int64.ts). */
  type: 'text' | 'bigint'
}

export const PET_COLUMNS = {
  name: { column: 'name', type: 'text' },
  categoryId: { column: 'category_id', type: 'bigint' },
  status: { column: 'status', type: 'text' }
} as const satisfies Record<PetProperty, Column>

/** The properties, in the order of PET_COLUMNS. */
export const PET_PROPERTIES = Object.keys(PET_COLUMNS) as PetProperty[]

/** Each column, bound to the value named by its property: what an insert's values and an update's set are. */
export function boundColumns (param: (property: PetProperty) => unknown): Record<string, unknown> {
  return Object.fromEntries(PET_PROPERTIES.map((property) => [PET_COLUMNS[property].column, param(property)]))
}

/** A pet's stored values, by property: `null` where it has none. */
export type PetValues = { [P in PetProperty]-?: Exclude<Pet[P], undefined> | null }

/** The values of a new pet: `null` for each property not sent. */
export function newPetValues (pet: NewPet): PetValues {
  return Object.fromEntries(PET_PROPERTIES.map((property) => [property, pet[property] ?? null])) as PetValues
}

/** The values of a row, by property. */
export function rowValues (row: PetRow): PetValues {
  return Object.fromEntries(PET_PROPERTIES.map((property) => [property, row[PET_COLUMNS[property].column]])) as PetValues
}

/** The values after a merge patch: a property the patch has replaced (`null` removes it), any other kept. */
export function patchedValues (current: PetValues, patch: PetPatch): PetValues {
  return Object.fromEntries(PET_PROPERTIES.map((property) => [property, patch[property] === undefined ? current[property] : patch[property]])) as PetValues
}

/** Whether two sets of values are the same; an int64 compares by value, whichever type the driver gave it. */
export function sameValues (a: PetValues, b: PetValues): boolean {
  return PET_PROPERTIES.every((property) => a[property] === b[property] || (a[property] !== null && b[property] !== null && String(a[property]) === String(b[property])))
}

// What toPet reads, looked up once: it runs for every pet of every answer.
const READS = PET_PROPERTIES.map((property) => [property, PET_COLUMNS[property].column, PET_COLUMNS[property].type === 'bigint'] as const)

/** The API's Pet of a row: a property whose column is NULL is absent, never `null` (the Pet schema has no null). */
export function toPet (row: PetRow): Pet {
  const pet: Record<string, unknown> = { id: toApiInt(row.id) }
  for (const [property, column, int64] of READS) {
    const value = row[column]
    if (value !== null) pet[property] = int64 ? toApiInt(value as PetRow['id']) : value
  }
  return pet as Pet
}

/** The row a pet with `values` is stored as, with id `id`. */
export function toRow (id: PetRow['id'], values: PetValues): PetRow {
  const row: Record<string, unknown> = { id }
  for (const property of PET_PROPERTIES) row[PET_COLUMNS[property].column] = values[property]
  return row as PetRow
}
