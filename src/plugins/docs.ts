/**
 * The docs page (Swagger UI at /docs) and the OpenAPI document at /openapi.json and
 * /openapi.yaml. All public. The YAML is served byte for byte as written; the JSON keeps
 * every integer exact.
 *
 * Not wrapped with fastify-plugin: the docs page's security headers stay in this scope.
 */
import swagger from '@fastify/swagger'
import swaggerUi from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import type { ApiDocument, JsonObject } from '../openapi/document.ts'
import { STABILITY_PROMISES } from '../openapi/operation-hooks.ts'
import { docsPageSecurity } from './security.ts'

/**
 * The document as the docs page shows it: integers as (rounded) numbers, since the page
 * uses JSON.parse anyway, and each operation's stability marking in front of its summary
 * and description, where a reader cannot miss it.
 */
export function docsPageDocument (document: ApiDocument): JsonObject {
  const copy = JSON.parse(document.json) as JsonObject
  for (const item of Object.values(copy.paths as JsonObject)) {
    for (const operation of Object.values(item as JsonObject) as JsonObject[]) {
      const level = operation['x-stability'] as keyof typeof STABILITY_PROMISES | undefined
      if (level === undefined) continue
      operation.summary = `[${level}] ${String(operation.summary ?? '')}`.trim()
      operation.description = `**${level[0]!.toUpperCase()}${level.slice(1)}**: ${STABILITY_PROMISES[level]}\n\n${String(operation.description ?? '')}`
    }
  }
  return copy
}

export default async function docs (app: FastifyInstance, { document }: { document: ApiDocument }) {
  app.addHook('onRequest', docsPageSecurity)
  await app.register(swagger, { mode: 'static', specification: { document: docsPageDocument(document) as any } })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    uiConfig: {
      // Keeps the key entered with "Authorize" across reloads of the page.
      persistAuthorization: true,
      displayRequestDuration: true,
      deepLinking: true
    }
  })

  app.get('/openapi.json', { schema: { hide: true } }, async function openapiJson (_request, reply) {
    return reply.type('application/json; charset=utf-8').send(document.json)
  })
  app.get('/openapi.yaml', { schema: { hide: true } }, async function openapiYaml (_request, reply) {
    return reply.type('application/yaml; charset=utf-8').send(document.yaml)
  })
}
