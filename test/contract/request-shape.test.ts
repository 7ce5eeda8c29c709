/**
 * What every operation's request must have before its parts are validated, checked for
 * every operation of the document, so an operation added later is covered without an edit:
 * a required body is there, in a media type the operation declares; an empty body is no
 * body; an empty path parameter is no route.
 */
import t from 'tap'
import { apiDocument, type JsonObject } from '../../src/contract/document.ts'
import { AUTH, build } from '../helpers/app.ts'
import { errorBody, JSON_TYPE } from '../helpers/answers.ts'
import { acceptedPath } from '../helpers/methods.ts'

const operations = [...apiDocument.operations.values()]
/** The operation's path with 1 for each parameter, under the prefix. */
const mediaTypesOf = (operationId: string): string[] => {
  const body = apiDocument.dereference(apiDocument.operation(operationId).operation.requestBody ?? null) as JsonObject | null
  return Object.keys((body?.content ?? {}) as JsonObject)
}
const withBody = operations.filter((op) => mediaTypesOf(op.operationId).length > 0)
const withoutBody = operations.filter((op) => mediaTypesOf(op.operationId).length === 0)

t.test('the document has operations of both kinds, so neither loop below is empty', async (t) => {
  t.ok(withBody.length > 0)
  t.ok(withoutBody.length > 0)
  t.ok(withBody.some((op) => mediaTypesOf(op.operationId).length > 1), 'one declares several media types')
})

t.test('a required body that is missing is a 400 naming the media types, for every operation that declares one', async (t) => {
  const app = await build(t)
  for (const { operationId, method, url } of withBody) {
    const accepted = mediaTypesOf(operationId)
    const missing = errorBody('invalid_request', `body is required, as ${accepted.join(' or ')}`, 400)
    const requests: Array<[string, Record<string, string>, string | undefined]> = [
      ['no body and no Content-Type', {}, undefined],
      ...accepted.map((type): [string, Record<string, string>, string] => [`an empty body as ${type}`, { 'content-type': type }, ''])
    ]
    for (const [what, headers, payload] of requests) {
      const res = await app.inject({ method: method as 'POST', url: acceptedPath(url), headers: { ...AUTH, ...headers }, payload })
      t.equal(res.statusCode, 400, `${operationId}: ${what}`)
      t.equal(res.headers['content-type'], JSON_TYPE)
      t.equal(res.headers['cache-control'], 'no-store')
      t.same(res.json(), missing, `${operationId}: ${what}`)
    }
  }
})

t.test('a body in no declared media type is a 400 unsupported_media_type, for every operation that declares one', async (t) => {
  const app = await build(t)
  for (const { operationId, method, url } of withBody) {
    const refusal = errorBody('unsupported_media_type', `Content-Type must be ${mediaTypesOf(operationId).join(' or ')}`, 400)
    for (const headers of [{}, { 'content-type': 'text/plain' }, { 'content-type': 'application/x-www-form-urlencoded' }]) {
      const res = await app.inject({ method: method as 'POST', url: acceptedPath(url), headers: { ...AUTH, ...headers }, payload: Buffer.from('{}') })
      t.equal(res.statusCode, 400, `${operationId}: ${JSON.stringify(headers)}`)
      t.equal(res.headers['content-type'], JSON_TYPE)
      t.same(res.json(), refusal, `${operationId}: ${JSON.stringify(headers)}`)
    }
  }
})

t.test('a body is validated under every declared media type, with or without parameters', async (t) => {
  const app = await build(t)
  for (const { operationId, method, url } of withBody) {
    for (const type of mediaTypesOf(operationId)) {
      for (const contentType of [type, `${type}; charset=utf-8`, `${type.toUpperCase()} ; charset="UTF-8"`]) {
        const res = await app.inject({ method: method as 'POST', url: acceptedPath(url), headers: { ...AUTH, 'content-type': contentType }, payload: '[]' })
        t.equal(res.statusCode, 400, `${operationId}: ${contentType}`)
        t.same(res.json(), errorBody('invalid_request', 'body must be object', 400), `${operationId}: ${contentType}`)
      }
    }
  }
})

t.test('an operation without a body answers a JSON Content-Type with no body as it answers none', async (t) => {
  const app = await build(t)
  for (const { operationId, method, url } of withoutBody) {
    const plain = await app.inject({ method: method as 'GET', url: acceptedPath(url), headers: AUTH })
    const typed = await app.inject({ method: method as 'GET', url: acceptedPath(url), headers: { ...AUTH, 'content-type': 'application/json' } })
    t.equal(typed.statusCode, plain.statusCode, operationId)
    t.ok(typed.statusCode < 500 && typed.statusCode !== 400, `${operationId}: ${typed.statusCode}`)
    t.equal(typed.body, plain.body, operationId)
  }
})

t.test('an empty path parameter is no route: 404, for every method of every path with one', async (t) => {
  const app = await build(t)
  const paths = new Set(operations.filter((op) => op.url.includes(':')).map((op) => op.url))
  t.ok(paths.size > 0)
  for (const url of paths) {
    // Each parameter empty in turn, the others 1.
    for (const parameter of url.match(/:\w+/g)!) {
      const path = `${apiDocument.prefix}${url.replace(parameter, '').replace(/:\w+/g, '1')}`
      for (const method of ['GET', 'PATCH', 'DELETE', 'PUT', 'POST'] as const) {
        const res = await app.inject({ method, url: `${path}?x=1`, headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{}' })
        t.equal(res.statusCode, 404, `${method} ${path}`)
        t.equal(res.headers['content-type'], JSON_TYPE)
        t.same(res.json(), errorBody('not_found', `No route ${method} ${path}`, 404), `${method} ${path}`)
      }
    }
  }
})

t.test('an empty path parameter still needs a key first', async (t) => {
  const app = await build(t)
  const res = await app.inject({ url: `${apiDocument.prefix}/pets/` })
  t.equal(res.statusCode, 401)
  t.equal(res.headers['www-authenticate'], 'Bearer realm="petstore"')
  t.same(res.json(), errorBody('unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>', 401))
})
