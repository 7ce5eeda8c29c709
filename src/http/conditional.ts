/**
 * Cheap re-reads: an entity tag for each successful read, and If-None-Match, so a client
 * or a private cache that already holds the answer gets 304 with no body. Safe edits:
 * If-Match, so an edit made on a stale copy is refused.
 *
 * Written here rather than taken from @fastify/etag, which compares If-None-Match to the tag
 * as one string (no lists, no `*`) and tags every answer, errors and writes included.
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-8.8.3
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-13.1.2
 */
import { hash } from 'node:crypto'

/** A strong tag for a body: it changes whenever the body would. */
export function entityTag (body: string | Buffer): string {
  return `"${hash('sha1', body, 'base64url')}"`
}

const opaque = (tag: string) => tag.startsWith('W/') ? tag.slice(2) : tag

/** Whether an If-None-Match header matches the tag: `*`, or any tag of its list, compared weakly. */
export function noneMatch (header: string | undefined, tag: string): boolean {
  if (header === undefined) return false
  const wanted = opaque(tag)
  return header.split(',').some((candidate) => {
    const trimmed = candidate.trim()
    return trimmed === '*' || opaque(trimmed) === wanted
  })
}

/**
 * Whether an If-Match header matches the current tag: `*`, or a tag of its list compared
 * strongly, so a weak tag matches nothing (RFC 9110 section 13.1.1).
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-13.1.1
 */
export function match (header: string, tag: string): boolean {
  return header.split(',').some((candidate) => {
    const trimmed = candidate.trim()
    return trimmed === '*' || (!trimmed.startsWith('W/') && trimmed === tag)
  })
}
