/**
 * The response cache's key for a read: its operation and its validated parameters, in a
 * fixed order, so that every spelling of one query shares one entry: `/v1/pets`,
 * `/v1/pets?limit=20` and `/v1/pets?&limit=20&` are all `listPets?limit=20`, and
 * `?status=sold&limit=5` is `?limit=5&status=sold`.
 *
 * It is read after validation: defaults are applied, values coerced (`/v1/pets/01` is
 * pet 1), and unknown query parameters refused. A read's handler depends on nothing else
 * (its `Link` is rebuilt from the same parsed values, never from the URL's text), so one
 * key is one answer. Declared headers are not in it: the reads' only one, If-None-Match,
 * is answered around the handler (../../contract/operation-hooks.ts), from the kept entity tag. And since
 * the values are bounded by their schemas, so is the key, however long the URL.
 */

/** The key of a request's validated path parameters and query. */
export type CacheKeyOf = (params: unknown, query: unknown) => string

type Values = Record<string, unknown> | undefined

/** What encodeURIComponent leaves as it is, tested first: a call to it costs more. */
const UNRESERVED = /^[\w.~-]*$/

/**
 * A value in a key: strings percent-encoded, so that no value can pass for a separator
 * and two different queries never share a key; the key is then ASCII, its length its bytes.
 */
function encoded (value: unknown): string {
  if (typeof value === 'string') return UNRESERVED.test(value) ? value : encodeURIComponent(value)
  if (Array.isArray(value)) return `[${value.map(encoded).join(',')}]`
  return String(value)
}

/** The key function of one operation, from the names of its path and query parameters. */
export function cacheKeyOf (operationId: string, pathNames: readonly string[], queryNames: readonly string[]): CacheKeyOf {
  // Sorted and encoded once, here, not on each request.
  const path = [...pathNames].sort()
  const query = [...queryNames].sort().map((name) => [name, encodeURIComponent(name)] as const)
  return (params, search) => {
    let key = operationId
    for (const name of path) key += '/' + encoded((params as Values)?.[name])
    let separator = '?'
    for (const [name, inKey] of query) {
      const value = (search as Values)?.[name]
      if (value === undefined) continue
      key += separator + inKey + '=' + encoded(value)
      separator = '&'
    }
    return key
  }
}
