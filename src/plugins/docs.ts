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
import { specDocumentForDocs, specJson, specYaml } from '../spec.ts'
import { docsPageSecurity } from './security.ts'

export default async function docs (app: FastifyInstance) {
  app.addHook('onRequest', docsPageSecurity)
  await app.register(swagger, { mode: 'static', specification: { document: specDocumentForDocs as any } })
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
    return reply.type('application/json; charset=utf-8').send(specJson)
  })
  app.get('/openapi.yaml', { schema: { hide: true } }, async function openapiYaml (_request, reply) {
    return reply.type('application/yaml; charset=utf-8').send(specYaml)
  })
}
