/**
 * The tables, as Kysely sees them. Repositories turn these rows into API shapes, so a
 * column never reaches a response by accident.
 *
 * The tables and their columns are generated/database.ts, made from the migrations by
 * `npm run codegen` (CI fails while it is stale): a column a migration adds is typed once
 * codegen has run, and one it drops stops compiling wherever it is still used. Integer
 * columns are `Int64` there, read as BigInt from SQLite (safeIntegers is on, see
 * sqlite.ts) and as a number or, for `int8`, a string from PostgreSQL; `toApiInt`
 * (src/http/int64.ts) turns all three into API integers.
 *
 * Only what the database cannot say is refined here.
 */
import type { Selectable } from 'kysely'
import type { DB } from '../../generated/database.ts'
import type { components } from '../../generated/openapi.ts'

/** Table `T` with the columns of `R` retyped; a name in `R` that is no column of `T` is an error. */
type Refine<T, R extends { [K in keyof R]: K extends keyof T ? unknown : never }> = Omit<T, keyof R> & R

export interface Database extends Omit<DB, 'pets'> {
  /** `status` is any text to the database; the service writes only the document's values. */
  pets: Refine<DB['pets'], { status: components['schemas']['PetStatus'] | null }>
}

export type PetRow = Selectable<Database['pets']>
export type OrderRow = Selectable<Database['orders']>
export type ApiKeyRow = Selectable<Database['api_keys']>
export type EventRow = Selectable<Database['events']>
