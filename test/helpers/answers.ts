/**
 * The answers tests expect, whole: the Error body every refusal carries, and the exact text
 * of a pet or an order.
 */
import { stringify } from 'lossless-json'

/** The Error body: its code, its message and the status repeated. */
export function errorBody (code: string, message: string, status: number) {
  return { code, message, status }
}

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
