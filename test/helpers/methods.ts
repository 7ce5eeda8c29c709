/**
 * What the document serves on a path, for the tests of its 405s: the methods, the `Allow`
 * a 405 there carries, and the methods it does not serve. Read from the document, so an
 * operation added on a path changes what is expected, not the tests.
 */
import fc from 'fast-check'
import { apiDocument, type JsonObject } from '../../src/contract/document.ts'

/** Methods a client may send that the document could serve; HEAD and GET go together. */
const METHODS = ['PUT', 'DELETE', 'POST', 'PATCH', 'OPTIONS'] as const

/** The methods the document serves on `url` (Fastify's form: `/pets/:petId`), HEAD wherever GET, sorted. */
export function servedMethods (url: string): string[] {
  const methods = [...apiDocument.operations.values()].filter((op) => op.url === url).map((op) => op.method)
  if (methods.length === 0) throw new Error(`the document serves nothing on ${url}`)
  // Fastify answers HEAD wherever it answers GET (RFC 9110 section 9.3.2).
  return (methods.includes('GET') ? [...methods, 'HEAD'] : methods).sort()
}

/** The `Allow` header of a 405 on `url`. */
export const allowOf = (url: string): string => servedMethods(url).join(', ')

/** The methods the document does not serve on `url`, in a fixed order (OPTIONS last). */
export function unservedMethods (url: string): Array<typeof METHODS[number]> {
  const served = servedMethods(url)
  return METHODS.filter((method) => !served.includes(method))
}

/**
 * `url` (Fastify's form) under the document's prefix, each path parameter a value its schema
 * accepts: 1 for an integer, for a string one its pattern matches (the same one every run).
 */
export function acceptedPath (url: string): string {
  const op = [...apiDocument.operations.values()].find((op) => op.url === url)
  if (op === undefined) throw new Error(`the document serves nothing on ${url}`)
  const schemas = new Map(apiDocument.parameters(op.operationId).filter((p) => p.in === 'path').map((p) => [p.name as string, p.schema as JsonObject]))
  return apiDocument.prefix + url.replace(/:(\w+)/g, (_, name: string) => {
    const schema = schemas.get(name) ?? {}
    if (schema.type !== 'string') return '1'
    return typeof schema.pattern === 'string' ? fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { seed: 1, numRuns: 1 })[0]! : 'x'
  })
}
