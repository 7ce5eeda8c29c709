/**
 * The document wires the routes: a fixture document with another prefix, a public
 * operation and every stability level; and the start refusing a document and a handler
 * map that do not pair up.
 */
import t from 'tap'
import { parse, stringify } from 'yaml'
import { ApiDocument, apiDocument } from '../../src/contract/document.ts'
import { handlers } from '../../src/features/handlers.ts'
import { AUTH, build, JSON_HEADERS } from '../helpers/app.ts'
import { captureLog } from '../helpers/log.ts'
import { DATABASE_UNAVAILABLE, errorBody } from '../helpers/answers.ts'
import { allowOf, unservedMethods } from '../helpers/methods.ts'
import { until } from '../helpers/until.ts'

const fixture = ApiDocument.read(new URL('../fixtures/stability.yaml', import.meta.url))

const fixtureHandlers = {
  listThings: async () => ['a', 'b'],
  makeThing: async (_request: unknown, reply: { code: (status: number) => { send: (body: string) => unknown } }) => reply.code(201).send('made'),
  dropThing: async (_request: unknown, reply: { code: (status: number) => { send: () => unknown } }) => reply.code(204).send(),
  thingStatus: async () => 'fine'
}

/**
 * The service's own document with one more operation, as YAML, on a path and with a name no
 * real change picks, so an operation the document gains does not collide with it.
 */
function withExtraOperation (): ApiDocument {
  const document = parse(apiDocument.yaml, { intAsBigInt: true })
  document.paths['/zz-fixture-only/{petId}'] = {}
  document.paths['/zz-fixture-only/{petId}'].post = {
    operationId: 'zzFixtureOnly',
    parameters: [{ $ref: '#/components/parameters/PetId' }],
    responses: { 204: { description: 'Adopted.' } }
  }
  return new ApiDocument(stringify(document), 'spec/openapi.yaml')
}

t.test('the start fails when an operation of the document has no handler, naming it', async (t) => {
  await t.rejects(build(t, { document: withExtraOperation() }),
    { message: 'spec/openapi.yaml: no handler for operation zzFixtureOnly' })
})

t.test('the start fails when a handler has no operation, naming it', async (t) => {
  await t.rejects(build(t, { handlers: { ...handlers, zzFixtureOnly: async () => 'fed' } }),
    { message: /: handler zzFixtureOnly has no operation in the document$/ })
})

t.test('the prefix comes from the first server of the document', async (t) => {
  const app = await build(t, { document: fixture, handlers: fixtureHandlers })
  const res = await app.inject({ url: '/api/v2/status', headers: AUTH })
  t.equal(res.statusCode, 200)
  t.equal(res.body, 'fine')
  const outside = await app.inject({ url: '/v1/pets', headers: AUTH })
  t.equal(outside.statusCode, 404)
  t.same(outside.json(), errorBody('not_found', 'No route GET /v1/pets', 404))
})

t.test('API-Stability comes from x-stability, on every answer of the operation', async (t) => {
  const app = await build(t, { document: fixture, handlers: fixtureHandlers })
  const ok = await app.inject({ url: '/api/v2/things', headers: AUTH })
  t.equal(ok.statusCode, 200)
  t.equal(ok.headers['api-stability'], 'alpha')
  t.equal(ok.body, '["a","b"]')

  const unauthorized = await app.inject({ url: '/api/v2/things' })
  t.equal(unauthorized.statusCode, 401)
  t.equal(unauthorized.headers['api-stability'], 'alpha', 'errors carry it too')
  t.same(unauthorized.json(), errorBody('unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>', 401))

  const invalid = await app.inject({ url: '/api/v2/things?size=9', headers: AUTH })
  t.equal(invalid.statusCode, 400)
  t.equal(invalid.headers['api-stability'], 'alpha')
  t.same(invalid.json(), errorBody('invalid_request', 'querystring/size must be <= 5', 400))

  const dropped = await app.inject({ method: 'DELETE', url: '/api/v2/things/3', headers: AUTH })
  t.equal(dropped.statusCode, 204)
  t.equal(dropped.headers['api-stability'], 'beta')

  const stable = await app.inject({ url: '/api/v2/status', headers: AUTH })
  t.equal(stable.headers['api-stability'], undefined, 'a stable operation sends no marking')
})

t.test('an operation whose security is empty needs no key; the others and unknown paths do', async (t) => {
  const app = await build(t, { document: fixture, handlers: fixtureHandlers })
  const made = await app.inject({ method: 'POST', url: '/api/v2/things', headers: { 'content-type': 'application/json' }, payload: { name: 'x' } })
  t.equal(made.statusCode, 201)
  t.equal(made.headers['api-stability'], 'experimental')
  for (const [method, url] of [['GET', '/api/v2/things'], ['GET', '/api/v2/nothing'], ['PUT', '/api/v2/things']] as const) {
    const res = await app.inject({ method, url })
    t.equal(res.statusCode, 401, `${method} ${url}`)
  }
})

t.test('405 with Allow comes from the paths, before any body is read', async (t) => {
  const app = await build(t)
  // A method that may carry a body, which the document does not serve on the pet's path.
  const unserved = unservedMethods('/pets/:petId').find((method) => method !== 'OPTIONS')!
  t.ok(unserved, 'the pet\'s path leaves a method with a body unserved')
  const res = await app.inject({ method: unserved, url: '/v1/pets/1', headers: JSON_HEADERS, payload: '{not json' })
  t.equal(res.statusCode, 405)
  t.equal(res.headers.allow, allowOf('/pets/:petId'))
  t.same(res.json(), errorBody('method_not_allowed', `Method ${unserved} is not allowed on /v1/pets/:petId`, 405))
  const fixtureApp = await build(t, { document: fixture, handlers: fixtureHandlers })
  const put = await fixtureApp.inject({ method: 'PUT', url: '/api/v2/things', headers: AUTH })
  t.equal(put.statusCode, 405)
  t.equal(put.headers.allow, 'GET, HEAD, POST')
})

t.test('a document the service cannot honour stops the start', async (t) => {
  const variants: Array<[string, (document: any) => void, RegExp]> = [
    ['an unknown stability level', (d) => { d.paths['/things'].get['x-stability'] = 'gamma' }, /listThings: x-stability must be one of experimental, alpha, beta, not gamma/],
    ['an unsupported security scheme', (d) => { d.components.securitySchemes.bearerAuth = { type: 'apiKey', in: 'query', name: 'key' } }, /security scheme bearerAuth is not supported/],
    ['no server to take the prefix from', (d) => { delete d.servers }, /the first server names the path prefix/],
    ['an operation without an operationId', (d) => { delete d.paths['/status'].get.operationId }, /GET \/status has no operationId/]
  ]
  for (const [what, change, message] of variants) {
    const document = parse(fixture.yaml)
    change(document)
    await t.rejects(async () => build(t, { document: new ApiDocument(stringify(document), 'fixture'), handlers: fixtureHandlers }), { message }, what)
  }
})

t.test('an operation whose work outlasts RESPONSE_TIMEOUT_MS is answered 503 with Retry-After, and the late outcome is logged', async (t) => {
  const log = captureLog()
  let finish!: () => void
  const app = await build(t, {
    timeouts: { responseMs: 100 },
    // Work that waits on something that does not answer: a stalled database, say.
    handlers: { ...handlers, listPets: () => new Promise((resolve) => { finish = () => resolve([]) }) },
    logger: { level: 'warn', stream: log.stream }
  })
  const res = await app.inject({ url: '/v1/pets', headers: AUTH })
  t.equal(res.statusCode, 503)
  t.same(res.json(), DATABASE_UNAVAILABLE)
  t.equal(res.headers['retry-after'], '2')
  t.equal(res.headers['cache-control'], 'no-store')
  t.match(log.text(), /no answer within the deadline/)
  finish()
  await until(() => log.text().includes('work finished after its deadline'), 'the late outcome to be logged')
  t.pass('the late outcome is logged')
})
