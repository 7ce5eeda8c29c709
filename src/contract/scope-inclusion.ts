/**
 * Which scopes include others: a `:write` scope includes the `:read` scope of the same
 * resource when the document lists it (`pets:write` includes `pets:read`), as Stripe's
 * restricted keys and GitHub's fine-grained tokens do. A key that may change something may
 * read it (a write answers the whole resource anyway); a read key cannot write.
 *
 * Read from the names the document lists (./operation-security.ts, `declaredScopes`), so a
 * new pair such as `events:read` and `events:write` follows without an edit, and a
 * `webhooks:write` without a `webhooks:read` includes nothing. Every comparison of a key's
 * scopes with an operation's asks here: the key check, its 403, the docs page, `keys list`.
 * @see https://docs.stripe.com/keys/restricted-api-keys
 */

const WRITE = /^(.+):write$/

/** The scopes `scope` includes besides itself, among the `declared` ones. */
export function includedScopes (scope: string, declared: readonly string[]): string[] {
  const resource = WRITE.exec(scope)?.[1]
  const read = `${resource}:read`
  return resource !== undefined && declared.includes(read) ? [read] : []
}

/** For each declared scope that another includes, those others (`pets:read` → `[pets:write]`). */
export function scopesIncluding (declared: readonly string[]): ReadonlyMap<string, readonly string[]> {
  const including = new Map<string, string[]>()
  for (const scope of declared) {
    for (const included of includedScopes(scope, declared)) including.set(included, [...including.get(included) ?? [], scope])
  }
  return including
}

/**
 * What a key holding `held` may do: the declared scopes it holds or holds through another,
 * in the document's order, then any it holds that the document no longer lists.
 */
export function effectiveScopes (held: readonly string[], declared: readonly string[]): string[] {
  const has = new Set(held.flatMap((scope) => [scope, ...includedScopes(scope, declared)]))
  return [...declared.filter((scope) => has.has(scope)), ...held.filter((scope) => !declared.includes(scope))]
}
