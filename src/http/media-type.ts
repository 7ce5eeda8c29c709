/** The media type of every JSON answer: bodies, Error bodies, the document as JSON. */
export const JSON_MEDIA_TYPE = 'application/json; charset=utf-8'

/**
 * The request bodies the service reads, all as JSON: a merge patch (RFC 7396) is a JSON
 * document too. An operation accepts those its document declares.
 */
export const BODY_MEDIA_TYPES: readonly string[] = ['application/json', 'application/merge-patch+json']

/**
 * The body media types a route accepts: those its body schema is declared under (one
 * schema per media type), else JSON alone.
 */
export function acceptedMediaTypes (routeSchema: { body?: unknown } | undefined): readonly string[] {
  const content = (routeSchema?.body as { content?: object } | undefined)?.content
  return content === undefined ? BODY_MEDIA_TYPES.slice(0, 1) : Object.keys(content)
}

/** `Content-Type must be application/json` (or `... or application/merge-patch+json`). */
export function mediaTypeRefusal (accepted: readonly string[]): string {
  return `Content-Type must be ${accepted.join(' or ')}`
}

/** The media type of a Content-Type header, lower case, without parameters. */
export const essence = (contentType: string | undefined) => (contentType ?? '').split(';', 1)[0]!.trim().toLowerCase()
