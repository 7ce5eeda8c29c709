/**
 * What the document serves on a path, for the tests of its 405s: the methods, the `Allow`
 * a 405 there carries, and the methods it does not serve. Read from the document, so an
 * operation added on a path changes what is expected, not the tests.
 */
import { apiDocument } from '../../src/contract/document.ts'

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
