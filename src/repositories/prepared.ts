/**
 * Queries compiled once.
 *
 * Building SQL with Kysely's query builder costs more than running a small query on
 * SQLite, so hot queries are built once per database, with named markers where the values
 * go; each call only binds its values into the compiled SQL. The SQL text is also what
 * the SQLite statement cache keys on, so it is prepared once too.
 */
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely'
import type { Database } from '../database/schema.ts'

class Marker {
  constructor (readonly name: string) {}
}

/**
 * A placeholder for the value named `name`. Typed `any` so that it fits whatever column or
 * operand it stands for; the values passed to the prepared query are typed instead.
 */
export function param (name: string): any {
  return new Marker(name)
}

export type PreparedQuery<P, R> = (db: Kysely<Database>, values: P) => Promise<QueryResult<R>>

export function prepare<P extends Record<string, unknown>, R> (
  build: (db: Kysely<Database>) => Compilable<R>
): PreparedQuery<P, R> {
  const compiled = new WeakMap<Kysely<Database>, CompiledQuery<R>>()
  return (db, values) => {
    let query = compiled.get(db)
    if (query === undefined) {
      query = build(db).compile()
      compiled.set(db, query)
    }
    const parameters = query.parameters.map((value) => value instanceof Marker ? values[value.name] ?? null : value)
    return db.executeQuery({ ...query, parameters })
  }
}
