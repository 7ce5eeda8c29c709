import { readFileSync } from 'node:fs'
import t from 'tap'
import { parse } from 'lossless-json'
import { parse as parseYaml } from 'yaml'
import { build } from '../../helpers/app.ts'

const yaml = readFileSync(new URL('../../../spec/openapi.yaml', import.meta.url), 'utf8')
/**
 * The document as written, parsed here on its own: what the pages must show of it (its paths,
 * servers, scopes, tags) is read from it, so a path or scope added there needs no edit here.
 */
const written = parseYaml(yaml, { intAsBigInt: true })
const writtenServers = written.servers as Array<{ url: string, description: string }>

t.test('/openapi.yaml is the document exactly as written', async (t) => {
  const app = await build(t)
  const res = await app.inject({ url: '/openapi.yaml' })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], 'application/yaml; charset=utf-8')
  t.equal(res.body, yaml)
})

t.test('/openapi.json is the same document, with exact integers', async (t) => {
  const app = await build(t)
  const res = await app.inject({ url: '/openapi.json' })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  const document = parse(res.body) as any
  t.equal(document.openapi, '3.1.0')
  t.ok('/pets' in written.paths, 'the document has its paths')
  t.same(Object.keys(document.paths), Object.keys(written.paths), 'every path, in the document\'s order')
  t.match(res.body, /"maximum":9223372036854775807[,}]/, 'the int64 maximum is not rounded')
  t.ok(writtenServers.length > 1 && writtenServers[0]!.url === '/v1', 'the first server is this one')
  t.same(document.servers.map((server: { url: string }) => server.url), writtenServers.map((server) => server.url))
  t.equal(document.paths['/pets/{petId}'].get.deprecated, true)
  t.equal(document.paths['/pets/{petId}'].get['x-deprecated-sunset'], '2030-12-05')
})

t.test('/docs serves Swagger UI on the same document, under the service\'s own title and favicon', async (t) => {
  const app = await build(t)
  for (const url of ['/docs', '/docs/']) {
    const page = await app.inject({ url })
    t.equal(page.statusCode, 200, url)
    t.equal(page.headers['content-type'], 'text/html; charset=utf-8', url)
    t.match(page.body, '<title>Petstore service — API docs</title>', url)
    // Relative to the page when it is asked for with the trailing slash, absolute without.
    const href = url === '/docs' ? '/docs/static/theme/favicon.svg' : './static/theme/favicon.svg'
    t.equal(page.body.match(/<link rel="icon"[^>]*>/g)?.join('\n'), `<link rel="icon" type="image/svg+xml" href="${href}" sizes="any" />`,
      `${url}: our favicon and no other`)
    t.match(page.body, `<link rel="stylesheet" type="text/css" href="${href.replace('favicon.svg', 'docs.css')}" />`, `${url}: our styles`)
  }
  const favicon = await app.inject({ url: '/docs/static/theme/favicon.svg' })
  t.equal(favicon.statusCode, 200)
  t.equal(favicon.headers['content-type'], 'image/svg+xml')
  t.same(favicon.rawPayload, readFileSync(new URL('../../../src/features/docs/assets/favicon.svg', import.meta.url)))
  const style = await app.inject({ url: '/docs/static/theme/docs.css' })
  t.equal(style.statusCode, 200)
  t.equal(style.headers['content-type'], 'text/css; charset=UTF-8')
  t.equal(style.body, readFileSync(new URL('../../../src/features/docs/assets/docs.css', import.meta.url), 'utf8'))
  const json = await app.inject({ url: '/docs/json' })
  t.equal(json.statusCode, 200)
  t.match(json.json().components.securitySchemes, { bearerAuth: { type: 'http', scheme: 'bearer', description: /^An API key, sent as `Authorization: Bearer <API_KEY>`\./ } })
})

t.test('the page has no top bar (no Fastify logo, no "Explore" box) and keeps the authorization across reloads', async (t) => {
  const app = await build(t)
  const init = await app.inject({ url: '/docs/static/swagger-initializer.js' })
  t.equal(init.statusCode, 200)
  const config = JSON.parse(/const config = (\{.*\})\n/.exec(init.body)?.[1] ?? 'null')
  t.same(config, { layout: 'BaseLayout', persistAuthorization: true, displayRequestDuration: true, deepLinking: true })
  t.notMatch(init.body, /data:image\//, 'no logo is embedded')
})

t.test('the docs page lists the servers, the relative one saying what it is', async (t) => {
  const app = await build(t)
  // The document's servers, the first (relative) one described for the page.
  t.same((await app.inject({ url: '/docs/json' })).json().servers, [
    { url: '/v1', description: 'This server: the host serving this page (local in development)' },
    ...writtenServers.slice(1)
  ])
  t.ok(writtenServers.slice(1).every((server) => server.url.startsWith('https://')), 'the others are absolute, and shown as written')
  const served = parse((await app.inject({ url: '/openapi.json' })).body) as any
  t.equal(served.servers[0].description, 'The host serving this document', 'the document itself is served as written')
})

t.test('the docs page shows the deprecated getPet with its sunset date and successor', async (t) => {
  const app = await build(t)
  const { paths } = (await app.inject({ url: '/docs/json' })).json()
  const getPet = paths['/pets/{petId}'].get
  t.equal(getPet.deprecated, true)
  t.equal(getPet.summary, '[deprecated, sunset 2030-12-05] Get a pet')
  t.match(getPet.description, /^\*\*Deprecated\*\* since 2026-11-22; \*\*sunset 2030-12-05\*\*, from when it answers `410 gone`\. Successor: `GET \/v1\/pets`\.\n\n\*\*Scope:\*\* `pets:read` \(or `pets:write`, which includes it\)\. [^\n]+\n\nReturns one pet\./)
  const served = parse((await app.inject({ url: '/openapi.json' })).body) as any
  t.equal(served.paths['/pets/{petId}'].get.summary, 'Get a pet (deprecated)', 'the document itself is served as written')
  t.match(served.paths['/pets/{petId}'].get.description, /^Returns one pet\./)
})

t.test('the docs page shows the scope each operation needs, and the scheme lists every scope', async (t) => {
  const app = await build(t)
  const page = (await app.inject({ url: '/docs/json' })).json()
  t.match(page.paths['/pets'].post.description, /^\*\*Scope:\*\* `pets:write`\. A key without it gets `403 insufficient_scope`\.\n\nAdds a pet/)
  t.match(page.paths['/store/orders/{orderId}'].delete.description, /^\*\*Beta\*\*: [^\n]+\n\n\*\*Scope:\*\* `orders:write`\./)
  t.match(page.paths['/pets'].get.description, /^\*\*Scope:\*\* `pets:read` \(or `pets:write`, which includes it\)\. A key without it gets `403 insufficient_scope`\.\n\n/)
  t.match(page.paths['/store/orders/{orderId}'].get.description, /\*\*Scope:\*\* `orders:read` \(or `orders:write`, which includes it\)\./)
  // The scheme's own text, then each scope the document lists with what it allows, in its order.
  const scheme = written.components.securitySchemes.bearerAuth
  const scopes = Object.entries(scheme['x-scopes'] as Record<string, string>)
  t.ok(scopes.some(([scope]) => scope === 'pets:read'), 'the document lists its scopes')
  t.equal(page.components.securitySchemes.bearerAuth.description, [
    scheme.description,
    '',
    'A key holds one or more scopes, and each operation needs one:',
    '',
    ...scopes.map(([scope, allows]) => `- \`${scope}\`: ${allows}`)
  ].join('\n'))
  const served = parse((await app.inject({ url: '/openapi.json' })).body) as any
  t.same(served.paths['/pets'].post.security, [{ bearerAuth: ['pets:write'] }], 'the document itself states the scope in the security requirement')
  t.notMatch(served.paths['/pets'].post.description, /Scope/, 'and is served as written')
})

t.test('the docs page shows the tags with their descriptions', async (t) => {
  const app = await build(t)
  const tags = (await app.inject({ url: '/docs/json' })).json().tags as Array<{ name: string, description: string }>
  t.same(tags.map((tag) => tag.name), written.tags.map((tag: { name: string }) => tag.name), 'every tag of the document')
  t.match(tags.find((tag) => tag.name === 'pets'), { description: 'The animals of the store.' })
  t.match(tags.find((tag) => tag.name === 'orders'), { description: /^Orders for the store's animals\. \*\*Experimental area\*\*/ })
})

t.test('the docs page shows each stability marking in front of the summary and description', async (t) => {
  const app = await build(t)
  const { paths } = (await app.inject({ url: '/docs/json' })).json()
  t.equal(paths['/store/orders'].get.summary, '[experimental] List orders')
  t.match(paths['/store/orders'].get.description, /^\*\*Experimental\*\*: may change or vanish without notice\.\n\n/)
  t.equal(paths['/store/orders'].post.summary, '[experimental] Place an order')
  t.equal(paths['/store/orders/{orderId}'].delete.summary, '[beta] Cancel an order')
  t.match(paths['/store/orders/{orderId}'].delete.description, /^\*\*Beta\*\*: keeps its shape, but may still change, with notice\.\n\n/)
  t.equal(paths['/pets'].get.summary, 'List pets', 'a stable operation is shown as written')
  const served = parse((await app.inject({ url: '/openapi.json' })).body) as any
  t.equal(served.paths['/store/orders'].get.summary, 'List orders', 'the document itself is served as written')
})
