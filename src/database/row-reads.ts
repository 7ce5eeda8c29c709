/**
 * What a read's answer was made from, told by its handler, so that the response cache
 * drops the answer only when one of those rows changes
 * (../features/response-cache/cache.ts). A handler that tells
 * nothing is made from anything: its answer goes with any commit at all.
 *
 * The tables are those whose changes the database records (`row_changes`:
 * ./row-changes.ts): pets, categories and orders.
 */
import { EVERY_ROW, type RowChange } from './row-changes.ts'

export type ReadTable = 'pets' | 'categories' | 'orders'

/** One row by its id, or every row of a table with an id in `(after, through]` (no end when undefined). */
export type Read =
  | { table: ReadTable, id: bigint }
  | { table: ReadTable, after: bigint, through: bigint | undefined }

const recorded = new WeakMap<object, Read[]>()

/** Begins recording what the handler answering `reply` reads. */
export function recordReads (reply: object): Read[] {
  const reads: Read[] = []
  recorded.set(reply, reads)
  return reads
}

/** The answer to `reply` is made from one row (a no-op where nothing records). */
export function readRow (reply: object, table: ReadTable, id: number | bigint): void {
  recorded.get(reply)?.push({ table, id: BigInt(id) })
}

/**
 * The answer to `reply` is a page of a table's rows in ascending id order, after `after`:
 * it is made from every row up to the one that told more follow (`next`), and, on the last
 * page, every row after.
 */
export function readPage (reply: object, table: ReadTable, after: number | bigint, next: number | bigint | undefined): void {
  recorded.get(reply)?.push({ table, after: BigInt(after), through: next === undefined ? undefined : BigInt(next) })
}

/** Whether `change` may change an answer made from `read`. */
export function affects (change: RowChange, read: Read): boolean {
  if (change.table !== read.table) return false
  if (change.id === EVERY_ROW) return true
  if ('id' in read) return change.id === read.id
  return change.id > read.after && (read.through === undefined || change.id <= read.through)
}
