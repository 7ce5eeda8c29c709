/**
 * 405 with `Allow` for a path of the document asked with a method it does not serve,
 * instead of the 404 an unknown path gets (RFC 9110 section 15.5.6).
 * @see https://www.rfc-editor.org/rfc/rfc9110#section-15.5.6
 */
import type { FastifyInstance, HTTPMethods } from 'fastify'
import { ApiError } from '../http/error-codes.ts'
import type { ApiDocument } from './document.ts'

const METHODS: HTTPMethods[] = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT', 'OPTIONS']

/** Registers, in `scope`, a refusing route for every other method of each path the document serves. */
export function methodNotAllowed (scope: FastifyInstance, document: ApiDocument): void {
  const served = new Map<string, Set<string>>()
  for (const { url, method } of document.operations.values()) served.set(url, (served.get(url) ?? new Set()).add(method))
  for (const [url, methods] of served) {
    // Fastify answers HEAD wherever it answers GET.
    if (methods.has('GET')) methods.add('HEAD')
    const allow = [...methods].sort().join(', ')
    const refusal = (method: string) => new ApiError('method_not_allowed', `Method ${method} is not allowed on ${scope.prefix}${url}`, { allow })
    scope.route({
      method: METHODS.filter((method) => !methods.has(method)),
      url,
      // Refused before any body is read, so a bad body cannot turn the 405 into a 400.
      preParsing: async (request) => { throw refusal(request.method) },
      handler: async (request) => { throw refusal(request.method) }
    })
  }
}
