/**
 * 405 for a known path asked with a method it does not serve, with the `Allow` header
 * (RFC 9110 section 15.5.6). The known paths and methods are the spec's.
 */
import type { FastifyInstance, HTTPMethods } from 'fastify'
import { ApiError } from '../errors.ts'
import { operations } from '../spec.ts'

const METHODS: HTTPMethods[] = ['DELETE', 'GET', 'PATCH', 'POST', 'PUT', 'OPTIONS']

export default async function methodNotAllowed (app: FastifyInstance) {
  const served = new Map<string, Set<string>>()
  for (const { url, method } of operations.values()) {
    served.set(url, (served.get(url) ?? new Set()).add(method))
  }
  for (const [url, methods] of served) {
    // Fastify answers HEAD wherever it answers GET.
    if (methods.has('GET')) methods.add('HEAD')
    const allow = [...methods].sort().join(', ')
    app.route({
      method: METHODS.filter((method) => !methods.has(method)),
      url,
      handler: async function methodNotAllowed (request) {
        throw new ApiError('method_not_allowed', `Method ${request.method} is not allowed on ${app.prefix}${url}`, { allow })
      }
    })
  }
}
