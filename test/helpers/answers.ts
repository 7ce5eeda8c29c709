/**
 * The answers tests expect, whole: the media type of every JSON answer, the Error body every
 * refusal carries, and the exact text of a pet or an order.
 */
import { stringify } from 'lossless-json'

/** The Content-Type of every JSON answer. */
export const JSON_TYPE = 'application/json; charset=utf-8'

/** The Error body: its code, its message and the status repeated. */
export function errorBody (code: string, message: string, status: number) {
  return { code, message, status }
}

/** What a request the database cannot serve now gets (a lock, a full disk, a stall, a lost connection), with Retry-After. */
export const DATABASE_UNAVAILABLE = errorBody('unavailable', 'The database is not available right now; retry after the Retry-After delay', 503)

type PetFields = Partial<Record<'id' | 'name' | 'categoryId' | 'status', unknown>>
type OrderFields = Partial<Record<'id' | 'petId' | 'quantity' | 'complete' | 'shipDate', unknown>>

/**
 * A pet as the service writes it: the schema's properties in the schema's order (the
 * serializer's, whatever order they were sent in), int64 values digit for digit, and no
 * `status` key for a pet without one.
 */
export function petBody ({ id, name, categoryId, status }: PetFields): string {
  return stringify({ id, name, categoryId, status }) as string
}

/** An order as the service writes it: as `petBody`, with no `shipDate` key for an order without one. */
export function orderBody ({ id, petId, quantity, complete, shipDate }: OrderFields): string {
  return stringify({ id, petId, quantity, complete, shipDate }) as string
}
