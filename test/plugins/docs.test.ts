import { readFileSync } from 'node:fs'
import t from 'tap'
import { parse } from 'lossless-json'
import { build } from '../helper.ts'

const yaml = readFileSync(new URL('../../spec/openapi.yaml', import.meta.url), 'utf8')

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
  t.same(Object.keys(document.paths), ['/pets', '/pets/{petId}', '/store/orders', '/store/orders/{orderId}'])
  t.match(res.body, /"maximum":9223372036854775807[,}]/, 'the int64 maximum is not rounded')
  t.same(document.servers.map((server: { url: string }) => server.url),
    ['/v1', 'https://petstore.example.com/v1', 'https://staging.petstore.example.com/v1'])
  t.equal(document.paths['/pets/{petId}'].get.deprecated, true)
  t.equal(document.paths['/pets/{petId}'].get['x-deprecated-sunset'], '2030-12-05')
})

t.test('/docs serves Swagger UI on the same document', async (t) => {
  const app = await build(t)
  const page = await app.inject({ url: '/docs/' })
  t.equal(page.statusCode, 200)
  t.match(page.headers['content-type'], /^text\/html/)
  t.match(page.body, /swagger-ui/)
  const init = await app.inject({ url: '/docs/static/swagger-initializer.js' })
  t.match(init.body, /persistAuthorization/)
  const json = await app.inject({ url: '/docs/json' })
  t.equal(json.statusCode, 200)
  t.same(json.json().components.securitySchemes, { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key, sent as `Authorization: Bearer <API_KEY>`.' } })
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
