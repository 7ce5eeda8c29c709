/**
 * Keyset pagination: a cursor is the last id of the page, encoded so clients treat it as
 * opaque; the next page is linked with an RFC 8288 `Link` header.
 * @see https://www.rfc-editor.org/rfc/rfc8288
 */
import { ApiError } from '../http/error-codes.ts'
import { INT64_MAX, toApiInt } from '../http/int64.ts'

const ID = /^[1-9]\d{0,18}$/

export function encodeCursor (lastId: number | bigint | string): string {
  return Buffer.from(lastId.toString()).toString('base64url')
}

/** The id a cursor stands for; a 400 for anything `encodeCursor` could not have made. */
export function decodeCursor (cursor: string): number | bigint {
  const text = Buffer.from(cursor, 'base64url').toString()
  if (!ID.test(text) || encodeCursor(text) !== cursor || BigInt(text) > INT64_MAX) {
    throw new ApiError('invalid_request', 'querystring/cursor is malformed: pass back the cursor of a Link header unchanged')
  }
  return toApiInt(text)
}

/**
 * `Link: </v1/pets?limit=20&status=sold&cursor=...>; rel="next"`, keeping the other
 * parameters; without `lastId`, the same request again, with no cursor.
 */
export function nextPageLink (path: string, query: Query, lastId: number | bigint | undefined): string {
  const params = new URLSearchParams()
  // In name order, whatever order the request gave them in: the link is the same for the
  // same page (the response cache keeps one answer for both orders).
  for (const [name, value] of Object.entries(query).sort(([a], [b]) => a < b ? -1 : 1)) {
    if (value !== undefined && name !== 'cursor') params.set(name, String(value))
  }
  if (lastId !== undefined) params.set('cursor', encodeCursor(lastId))
  return `<${path}?${params.toString()}>; rel="next"`
}

/** A page of items, whether more follow, and if so the id of the first of them. */
export interface Page<Item> {
  items: Item[]
  more: boolean
  nextId?: number | bigint
}

/**
 * A page from the rows of a query asked for one row more than `limit`: that extra row
 * tells whether a next page exists, without a COUNT.
 */
export function toPage<Row extends { id: bigint | number | string }, Item> (rows: Row[], limit: number, map: (row: Row) => Item): Page<Item> {
  const more = rows.length > limit
  return { items: (more ? rows.slice(0, limit) : rows).map(map), more, nextId: more ? toApiInt(rows[limit]!.id) : undefined }
}

/** A request's validated query: every parameter the operation declares, defaults applied. */
export type Query = Readonly<Record<string, string | number | boolean | bigint | undefined>>

/**
 * A page's items, with `Link rel="next"` set on the reply when more follow; the link keeps
 * the request's path and every query parameter but the cursor, so a parameter the document
 * adds is kept with no edit here or in the handler.
 */
export function linkedPage<Item extends { id: number | bigint }> (
  reply: { header: (name: string, value: string) => unknown },
  path: string,
  query: Query,
  page: { items: Item[], more: boolean }
): Item[] {
  if (page.more) reply.header('link', nextPageLink(path, query, page.items.at(-1)!.id))
  return page.items
}
