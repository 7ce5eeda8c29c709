/**
 * Paging through a list: the service answers a bare array and names the next page in an
 * RFC 8288 `Link: </v1/pets?limit=20&cursor=...>; rel="next"` header. openapi-fetch has
 * no Link support, and the target is root-relative (it repeats `/v1`, which the client's
 * baseUrl already ends in), so only the link's query is kept: the same operation is called
 * again with it, which carries the cursor and every other parameter the service kept.
 * @see https://www.rfc-editor.org/rfc/rfc8288
 */

/** One page of a list, for callers who page themselves. */
export interface Page<Item> {
  items: Item[]
  /** Pass it back as `cursor` for the next page; undefined on the last page. */
  nextCursor: string | undefined
  hasMore: boolean
}

export type Query = Record<string, string | number | undefined>

/** A page as fetched: the page, and the query of the next one (from its Link). */
export interface LinkedPage<Item> {
  page: Page<Item>
  next: Query | undefined
}

const LINK = /^\s*<([^>]*)>(.*)$/
const REL = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;]+))/i

/** The query of the `rel="next"` target of a Link header; undefined when there is none. */
export function nextQuery (link: string | null): Query | undefined {
  // Link values are separated by commas; a target (inside <>) may hold commas of its own.
  for (const value of link?.split(/,(?=\s*<)/) ?? []) {
    const [, target, params] = LINK.exec(value) ?? []
    const rel = REL.exec(params ?? '')
    const rels = (rel?.[1] ?? rel?.[2] ?? '').toLowerCase().split(/\s+/)
    if (target !== undefined && rels.includes('next')) {
      return Object.fromEntries(new URL(target, 'http://link.invalid').searchParams)
    }
  }
  return undefined
}

export function linkedPage<Item> (items: Item[], link: string | null): LinkedPage<Item> {
  const next = nextQuery(link)
  const cursor = next?.cursor
  return { page: { items, nextCursor: cursor === undefined ? undefined : String(cursor), hasMore: next !== undefined }, next }
}

/**
 * Every item of every page, fetched one page at a time as the caller iterates. A list ends
 * at its last page, which has no Link. The event feed links every page to the next, to poll
 * on from: it ends at its first empty page, unless `wait` (seconds) was asked, in which case
 * each empty page waits that long on the service for new events and the feed is followed
 * for as long as the caller iterates.
 */
export function everyItem<Item> (first: Query, fetchPage: (query: Query) => Promise<LinkedPage<Item>>): AsyncIterable<Item> {
  const waits = Number(first.wait ?? 0) > 0
  return {
    async * [Symbol.asyncIterator] () {
      let query: Query | undefined = first
      while (query !== undefined) {
        const { page, next } = await fetchPage(query)
        yield * page.items
        if (page.items.length === 0 && !waits) return
        query = next
      }
    }
  }
}
