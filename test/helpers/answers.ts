/**
 * The answers tests expect, whole: the media type of every JSON answer, the Error body every
 * refusal carries, and the exact text of a pet, a category or an order.
 */
import { stringify } from 'lossless-json'
import { apiDocument, type JsonObject } from '../../src/contract/document.ts'

/** The Content-Type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8'

/** The Error body: its code, its message and the status repeated. */
export function errorBody (code: string, message: string, status: number) {
  return { code, message, status }
}

/** What a request the database cannot serve now gets (a lock, a full disk, a stall, a lost connection), with Retry-After. */
export const DATABASE_UNAVAILABLE = errorBody('unavailable', 'The database is not available right now; retry after the Retry-After delay', 503)

type Fields = Readonly<Record<string, unknown>>

/**
 * The properties of one of the document's schemas in the order the serializer writes them:
 * the required ones first, then the others, each in the document's order.
 */
function propertiesOf (schema: string): string[] {
  const schemas = (apiDocument.document.components as JsonObject).schemas as JsonObject
  const { properties, required = [] } = schemas[schema] as { properties: JsonObject, required?: string[] }
  const names = Object.keys(properties)
  return [...names.filter((name) => required.includes(name)), ...names.filter((name) => !required.includes(name))]
}

/** `fields` as the service writes them: in the schema's order, int64 values digit for digit, absent ones left out. */
function bodyOf (schema: string, fields: Fields): string {
  const known = propertiesOf(schema)
  const unknown = Object.keys(fields).filter((name) => !known.includes(name))
  if (unknown.length > 0) throw new Error(`${schema} has no ${unknown.join(', ')}`)
  return stringify(Object.fromEntries(known.map((name) => [name, fields[name]]))) as string
}

/**
 * A pet as the service writes it: the schema's properties in the serializer's order
 * (whatever order they were sent in), int64 values digit for digit, and no
 * key for a property it does not have (`status`, say). Read from the document, so a field
 * added there needs no edit here.
 */
export const petBody = (fields: Fields): string => bodyOf('Pet', fields)

/** An order as the service writes it: as `petBody`, with no `shipDate` key for an order without one. */
export const orderBody = (fields: Fields): string => bodyOf('Order', fields)

/** A category as the service writes it: as `petBody`, with no `description` key for a category without one. */
export const categoryBody = (fields: Fields): string => bodyOf('Category', fields)
