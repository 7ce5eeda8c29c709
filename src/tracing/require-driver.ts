/**
 * Loads a CommonJS driver (pg, ioredis) with `require` rather than `import()`. Tracing's
 * instrumentations patch a package as it is required; on Node 20 an `import()` of a
 * CommonJS package never reaches that hook, so its queries would go untraced.
 */
import { createRequire } from 'node:module'

const requireFromHere = createRequire(import.meta.url)

export function requireDriver<T> (name: 'pg' | 'ioredis'): T {
  return requireFromHere(name) as T
}
