/**
 * Queries compiled once.
 *
 * Building SQL with Kysely's query builder costs more than running a small query on
 * SQLite, so hot queries are built once per database, with named markers where the values
 * go; each call only binds its values into the compiled SQL. The SQL text is also what
 * the SQLite statement cache keys on, so it is prepared once too.
 *
 * On PostgreSQL each of these queries is also a named statement (./postgres.ts): parsed and
 * planned once per connection rather than at every call, which is most of what a small
 * query costs the server there. How many there are is bounded by the queries written with
 * `prepare`, whatever the values.
 *
 * Marker names are checked twice: by the compiler (the `param` a query is built with only
 * takes the names of its values' type) and at each call (a value that is missing, or
 * `undefined`, throws; say `null` for SQL NULL), so a misspelt name can never bind NULL.
 */
import { CompiledQuery, type Compilable, type Kysely, type QueryResult } from 'kysely'
import type { Database } from './schema.ts'

class Marker {
  constructor (readonly name: string) {}
}

/**
 * A placeholder for the value named `name`. Typed `any` so that it fits whatever column or
 * operand it stands for; the values passed to the prepared query are typed instead.
 */
export type Param<P> = (name: keyof P & string) => any

const statementNames = new Map<string, string>()

/** The name of the statement a query compiled here runs as, by its SQL; undefined for any other query. */
export function statementName (sql: string): string | undefined {
  return statementNames.get(sql)
}

const param = (name: string): any => new Marker(name)

export type PreparedQuery<P, R> = (db: Kysely<Database>, values: P) => Promise<QueryResult<R>>

export function prepare<P extends Record<string, unknown>, R> (
  build: (db: Kysely<Database>, param: Param<P>) => Compilable<R>
): PreparedQuery<P, R> {
  const compiled = new WeakMap<Kysely<Database>, CompiledQuery<R>>()
  return (db, values) => {
    let query = compiled.get(db)
    if (query === undefined) {
      query = build(db, param).compile()
      compiled.set(db, query)
      if (!statementNames.has(query.sql)) statementNames.set(query.sql, `petstore_${statementNames.size + 1}`)
    }
    let parameters
    try {
      parameters = query.parameters.map((value) => value instanceof Marker ? bound(values, value.name) : value)
    } catch (error) {
      return Promise.reject(error)
    }
    return db.executeQuery({ ...query, parameters })
  }
}

function bound (values: Record<string, unknown>, name: string): unknown {
  const value = values[name]
  if (value === undefined) throw new Error(`prepared query: no value for ${name} (use null for SQL NULL)`)
  return value
}
