/**
 * The docs page (Swagger UI at /docs) and the OpenAPI document at /openapi.json and
 * /openapi.yaml. All public. The YAML is served byte for byte as written; the JSON keeps
 * every integer exact. The page shows the document with its markings made visible
 * (./page.ts).
 *
 * The page is the service's own: its title, favicon and a few styles, and no top bar (Swagger UI's
 * `StandaloneLayout` puts the Fastify logo and an "Explore" box for loading any other
 * document there; `BaseLayout` is the same page without it). Everything it loads is
 * same-origin, so the docs page's Content-Security-Policy (../../http/security-headers.ts) stays as strict.
 *
 * Not wrapped with fastify-plugin: the docs page's security headers stay in this scope.
 */
import { readFileSync } from 'node:fs'
import swagger from '@fastify/swagger'
import swaggerUi, { type FastifySwaggerUiOptions } from '@fastify/swagger-ui'
import type { FastifyInstance } from 'fastify'
import { docsPageDocument } from './page.ts'
import type { ApiDocument } from '../../contract/document.ts'
import { docsPageSecurity } from '../../http/security-headers.ts'
import { JSON_MEDIA_TYPE } from '../../http/media-type.ts'

/** Read beside this file: `npm run build` copies them into dist/ (scripts/build-spec.ts). */
const asset = (name: string) => readFileSync(new URL(`./assets/${name}`, import.meta.url))
const FAVICON = asset('favicon.svg')
const STYLE = asset('docs.css').toString('utf8')

export default async function docs (app: FastifyInstance, { document }: { document: ApiDocument }) {
  app.addHook('onRequest', docsPageSecurity)
  const page = docsPageDocument(document)
  await app.register(swagger, { mode: 'static', specification: { document: page as any } })
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    theme: {
      title: `${(page.info as { title: string }).title} — API docs`,
      favicon: [{ filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: FAVICON }],
      css: [{ filename: 'docs.css', content: STYLE }]
    },
    // Without it, the plugin reads the Fastify logo into its initializer script. Its types
    // omit null, which its code checks for.
    logo: null as unknown as FastifySwaggerUiOptions['logo'],
    uiConfig: {
      layout: 'BaseLayout',
      // Keeps the key entered with "Authorize" across reloads of the page.
      persistAuthorization: true,
      displayRequestDuration: true,
      deepLinking: true
    }
  })

  app.get('/openapi.json', { schema: { hide: true } }, async function openapiJson (_request, reply) {
    return reply.type(JSON_MEDIA_TYPE).send(document.json)
  })
  app.get('/openapi.yaml', { schema: { hide: true } }, async function openapiYaml (_request, reply) {
    return reply.type('application/yaml; charset=utf-8').send(document.yaml)
  })
}
