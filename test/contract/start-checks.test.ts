/**
 * Whatever the document declares is honoured or refused at start: each edit a maintainer
 * might make that the service could not honour stops the start (and `npm run codegen`),
 * naming the place; the edits it can honour (a body under merge-patch JSON, parameters
 * declared on the path item) are honoured.
 */
import { execFile } from 'node:child_process'
import { cp, readdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'
import { parse, stringify } from 'yaml'
import { ApiDocument, apiDocument } from '../../src/contract/document.ts'
import { declaredScopes } from '../../src/contract/operation-security.ts'
import { documentProblems } from '../../src/contract/start-checks.ts'
import { EMITTED_EVENTS } from '../../src/features/events/types.ts'
import { AUTH, build } from '../helpers/app.ts'
import { errorBody } from '../helpers/answers.ts'

const root = fileURLToPath(new URL('../../', import.meta.url))

/** The service's own document after `change`. */
function edited (change: (document: any) => void): ApiDocument {
  const document = parse(apiDocument.yaml, { intAsBigInt: true })
  change(document)
  return new ApiDocument(stringify(document), 'spec/openapi.yaml')
}

// What a fixture invents (a parameter, a scope) is named so that no real change picks the
// name: a `tag` filter added to the document must not collide with a fixture's `tag`.
const createPetBody = (d: any) => d.paths['/pets'].post.requestBody
const listPetsParameters = (d: any) => d.paths['/pets'].get.parameters
const FIXTURE_SCOPE = 'pets:zzfixtureonly'

t.test('the service\'s own document has no problem', async (t) => {
  t.same(documentProblems(apiDocument, EMITTED_EVENTS), [])
})

t.test('each declaration the service cannot honour is named, and stops the start', async (t) => {
  const cases: Array<[string, (document: any) => void, string]> = [
    ['a body under a media type the service does not read',
      (d) => { createPetBody(d).content['text/plain'] = { schema: { type: 'string' } } },
      'createPet: request body media type text/plain is not one the service reads (application/json, application/merge-patch+json)'],
    ['an optional body',
      (d) => { createPetBody(d).required = false },
      'createPet: the request body must be required: true; the service takes no optional bodies'],
    ['a cookie parameter',
      (d) => { listPetsParameters(d).push({ name: 'zzFixtureSession', in: 'cookie', schema: { type: 'string' } }) },
      'listPets: cookie parameter zzFixtureSession: the service reads parameters in the query, the path and headers only'],
    ['a parameter style it cannot read',
      (d) => { listPetsParameters(d).push({ name: 'zzFixtureFilter', in: 'query', style: 'deepObject', schema: { type: 'string' } }) },
      'listPets: query parameter zzFixtureFilter: style deepObject, explode undefined cannot be read; only the default (form) is'],
    ['a list parameter',
      (d) => { listPetsParameters(d).push({ name: 'zzFixtureList', in: 'query', schema: { type: 'array', items: { type: 'string' } } }) },
      'listPets: query parameter zzFixtureList: type array cannot be read; a parameter is a string, integer, number or boolean'],
    ['a parameter declared by content rather than a schema',
      (d) => { listPetsParameters(d).push({ name: 'zzFixtureWhere', in: 'query', content: { 'application/json': { schema: { type: 'object' } } } }) },
      'listPets: query parameter zzFixtureWhere has no schema (`content` is not read for parameters)'],
    ['allowEmptyValue',
      (d) => { listPetsParameters(d).push({ name: 'zzFixtureEmpty', in: 'query', allowEmptyValue: true, schema: { type: 'string' } }) },
      'listPets: query parameter zzFixtureEmpty: allowEmptyValue is not honoured; an empty value is judged by the schema'],
    ['a parameter declared twice',
      (d) => { listPetsParameters(d).push({ name: 'limit', in: 'query', schema: { type: 'integer' } }) },
      'listPets: query parameter limit is declared twice'],
    ['a path parameter that is not in the path',
      (d) => { listPetsParameters(d).push({ name: 'zzFixtureShelf', in: 'path', required: true, schema: { type: 'string' } }) },
      'listPets: path parameter zzFixtureShelf is not in the path /pets'],
    ['a path template without its parameter',
      (d) => { d.paths['/pets/{petId}'].get.parameters.shift() },
      'getPet: the path /pets/{petId} names {petId}, which no path parameter declares'],
    ['a response under a media type the service does not answer',
      (d) => { d.paths['/pets'].get.responses['200'].content['text/csv'] = { schema: { type: 'string' } } },
      'listPets: response 200 media type text/csv is not one the service answers (application/json)'],
    ['an operation with servers of its own',
      (d) => { d.paths['/pets'].get.servers = [{ url: '/v2' }] },
      'listPets: servers of its own are not honoured; every operation is served under the first server of the document'],
    ['callbacks',
      (d) => { d.paths['/pets'].post.callbacks = { adopted: {} } },
      'createPet: callbacks are not made by the service'],
    ['an event type the service emits that the document does not declare',
      (d) => {
        delete d.webhooks['order.cancelled']
        d.components.schemas.EventType.enum.pop()
        d.components.schemas.WebhookEventSelection.enum.splice(d.components.schemas.WebhookEventSelection.enum.indexOf('order.cancelled'), 1)
      },
      'webhooks: the service emits order.cancelled events, which the document does not declare'],
    ['an event type the service never emits',
      (d) => {
        d.webhooks['pet.zzfixtureonly'] = d.webhooks['pet.created']
        d.components.schemas.EventType.enum.push('pet.zzfixtureonly')
        d.components.schemas.WebhookEventSelection.enum.push('pet.zzfixtureonly')
      },
      'webhooks.pet.zzfixtureonly: the service never emits this event type'],
    ['an envelope without a field every event carries',
      (d) => { delete d.components.schemas.PetCreatedEvent.properties.timestamp },
      'webhooks.pet.created: the envelope lacks timestamp, which every pet.created event carries'],
    ['an envelope with a field the service never sends',
      (d) => { d.components.schemas.OrderPlacedEvent.properties.previous = { $ref: '#/components/schemas/OrderPrevious' } },
      'webhooks.order.placed: the envelope declares previous, which the service never sends'],
    ['an envelope whose type is another',
      (d) => { d.components.schemas.OrderUpdatedEvent.properties.type.const = 'order.placed' },
      'webhooks.order.updated: the envelope\'s type must be const: order.updated'],
    ['an event type without the scope that reads it',
      (d) => { delete d.webhooks['order.placed'].post['x-read-scope'] },
      'webhooks.order.placed: x-read-scope must name the scope a key needs to read these events'],
    ['an event type read under a scope no scheme lists',
      (d) => { d.webhooks['pet.created'].post['x-read-scope'] = 'pet:read' },
      'webhooks.pet.created: its x-read-scope names the scope "pet:read", which no bearer scheme\'s x-scopes lists'],
    ['a field of data that previous does not declare',
      (d) => { d.components.schemas.Pet.properties.zzFixtureNickname = { type: 'string' } },
      'webhooks.pet.updated: previous lacks zzFixtureNickname, a field of data that a change may change'],
    ['a field of previous that does not take null',
      (d) => { d.components.schemas.OrderPrevious.properties.complete = { type: 'boolean' } },
      'webhooks.order.updated: previous must take null for complete (a field absent before the change)'],
    ['a webhook without a post',
      (d) => { d.webhooks['pet.updated'] = { get: d.webhooks['pet.updated'].post } },
      'webhooks.pet.updated: declares no post operation, the event\'s envelope'],
    ['a type filter that lists other types than the webhooks',
      (d) => { d.components.schemas.EventType.enum.push('pet.zzfixtureonly') },
      'components.schemas.EventType: its enum (pet.created, pet.updated, category.created, category.updated, category.deleted, order.placed, order.updated, order.cancelled, pet.zzfixtureonly) must list exactly the types under webhooks (pet.created, pet.updated, category.created, category.updated, category.deleted, order.placed, order.updated, order.cancelled)'],
    ['a webhook endpoint may select a type the document does not declare',
      (d) => { d.components.schemas.WebhookEventSelection.enum.push('user.*') },
      'components.schemas.WebhookEventSelection: its enum (pet.created, pet.updated, category.created, category.updated, category.deleted, order.placed, order.updated, order.cancelled, pet.*, category.*, order.*, *, user.*) must list exactly the types under webhooks, <resource>.* for each of their resources, and * (pet.created, pet.updated, category.created, category.updated, category.deleted, order.placed, order.updated, order.cancelled, pet.*, category.*, order.*, *)'],
    ['a scope no scheme lists',
      (d) => { d.paths['/pets'].post.security = [{ bearerAuth: ['pets:wirte'] }] },
      'createPet: its security names the scope "pets:wirte", which no bearer scheme\'s x-scopes lists'],
    ['scopes that are not a map of texts',
      (d) => { d.components.securitySchemes.bearerAuth['x-scopes'] = ['pets:read'] },
      'securitySchemes.bearerAuth: x-scopes must map each scope to the text that says what it allows'],
    ['a scope with a space or a quote',
      (d) => { d.components.securitySchemes.bearerAuth['x-scopes']['pets "all"'] = 'Everything.' },
      'securitySchemes.bearerAuth: the scope "pets "all"" is not one word of visible characters (RFC 6749 section 3.3)'],
    ['an event stream header the service does not send',
      (d) => { d['x-event-stream'].headers['ce-subject'] = '{id}' },
      'x-event-stream.headers.ce-subject: the service publishes no such thing'],
    ['an event stream subject the service does not publish to',
      (d) => { d['x-event-stream'].nats.subject = 'events.{type}' },
      'x-event-stream.nats.subject: the service publishes "{topic}.{type}", not "events.{type}"'],
    ['an event stream that leaves out what the service sends',
      (d) => { delete d['x-event-stream'].amqp },
      'x-event-stream.amqp: must be an object'],
    ['an event stream that is not an object',
      (d) => { d['x-event-stream'] = 'NATS' },
      'x-event-stream: must be an object'],
    ['an event stream description that is not text',
      (d) => { d['x-event-stream'].description = ['NATS'] },
      'x-event-stream.description: must be text'],
    ['a $ref that does not resolve',
      (d) => { createPetBody(d).content['application/json'].schema.$ref = '#/components/schemas/NewPett' },
      '#/paths/~1pets/post/requestBody/content/application~1json/schema: $ref #/components/schemas/NewPett does not resolve (only #/... references inside the document are read)']
  ]
  for (const [what, change, problem] of cases) {
    const document = edited(change)
    t.same(documentProblems(document, EMITTED_EVENTS), [problem], what)
    await t.rejects(build(t, { document }), { message: `spec/openapi.yaml declares what the service cannot honour:\n  - ${problem}` }, `${what}: the start stops`)
  }
})

t.test('a body declared under JSON and merge-patch JSON is validated under each, and no other type is read', async (t) => {
  const app = await build(t, {
    document: edited((d) => {
      const body = createPetBody(d)
      body.content['application/merge-patch+json'] = { schema: body.content['application/json'].schema }
    })
  })
  const create = (contentType: string, payload: string) =>
    app.inject({ method: 'POST', url: '/v1/pets', headers: { ...AUTH, 'content-type': contentType }, payload })
  for (const contentType of ['application/json', 'application/merge-patch+json', 'application/merge-patch+json; charset=utf-8']) {
    const lost = await create(contentType, '{"name":"Rex","categoryId":1,"status":"lost"}')
    t.equal(lost.statusCode, 400, contentType)
    t.same(lost.json(), errorBody('invalid_request', 'body/status must be one of: available, pending, sold', 400), contentType)
    const made = await create(contentType, '{"name":"Rex","categoryId":1}')
    t.equal(made.statusCode, 201, contentType)
  }
  const text = await create('text/plain', '{"name":"Rex","categoryId":1}')
  t.equal(text.statusCode, 400)
  t.equal(text.headers['content-type'], 'application/json; charset=utf-8')
  t.same(text.json(), errorBody('unsupported_media_type', 'Content-Type must be application/json or application/merge-patch+json', 400))
})

t.test('a body declared under merge-patch JSON only refuses plain JSON, and the operations that do not declare it refuse merge-patch', async (t) => {
  const app = await build(t, {
    document: edited((d) => {
      const body = createPetBody(d)
      body.content = { 'application/merge-patch+json': body.content['application/json'] }
    })
  })
  const json = await app.inject({ method: 'POST', url: '/v1/pets', headers: { ...AUTH, 'content-type': 'application/json' }, payload: '{"name":"Rex","categoryId":1}' })
  t.equal(json.statusCode, 400)
  t.same(json.json(), errorBody('unsupported_media_type', 'Content-Type must be application/merge-patch+json', 400))
  const patch = await app.inject({ method: 'POST', url: '/v1/pets', headers: { ...AUTH, 'content-type': 'application/merge-patch+json' }, payload: '{"name":"Rex","categoryId":1,"status":"lost"}' })
  t.equal(patch.statusCode, 400)
  t.same(patch.json(), errorBody('invalid_request', 'body/status must be one of: available, pending, sold', 400))

  const order = await app.inject({ method: 'POST', url: '/v1/store/orders', headers: { ...AUTH, 'content-type': 'application/merge-patch+json' }, payload: '{"petId":1,"quantity":1}' })
  t.equal(order.statusCode, 400)
  t.same(order.json(), errorBody('unsupported_media_type', 'Content-Type must be application/json', 400))
})

t.test('a new operation gets its scope by declaring it, and a new scope by listing it', async (t) => {
  const app = await build(t, {
    keySyncIntervalMs: 60_000,
    document: edited((d) => {
      d.components.securitySchemes.bearerAuth['x-scopes'][FIXTURE_SCOPE] = 'List pets, and nothing else.'
      d.paths['/pets'].get.security = [{ bearerAuth: [FIXTURE_SCOPE] }, { bearerAuth: ['pets:read', 'orders:read'] }]
    })
  })
  const listed = [...declaredScopes(apiDocument).keys()]
  t.ok(listed.includes('pets:read'), 'the document lists its own scopes')
  t.same(app.apiKeys.everyScope, [...listed, FIXTURE_SCOPE], 'the document\'s scopes, in its order, then the new one')
  const { createApiKey } = await import('../../src/features/api-keys/repository.ts')
  const keyOf = async (name: string, scopes: string[]) => {
    const { key } = await createApiKey(app.db, { name, scopes })
    await app.apiKeys.sync(app)
    return { authorization: `Bearer ${key}` }
  }
  t.equal((await app.inject({ url: '/v1/pets', headers: await keyOf('lister', [FIXTURE_SCOPE]) })).statusCode, 200, 'the new scope is enough')
  t.equal((await app.inject({ url: '/v1/pets', headers: await keyOf('both', ['pets:read', 'orders:read']) })).statusCode, 200, 'so is the other alternative, whole')
  const half = await app.inject({ url: '/v1/pets', headers: await keyOf('half', ['pets:read']) })
  t.equal(half.statusCode, 403, 'half an alternative is not')
  t.same(half.json(), errorBody('insufficient_scope', `This API key lacks the scope ${FIXTURE_SCOPE}, or pets:read and orders:read, which listPets needs (pets:write includes pets:read; orders:write includes orders:read)`, 403))
  t.equal(half.headers['www-authenticate'], `Bearer realm="petstore", error="insufficient_scope", scope="${FIXTURE_SCOPE}"`)
})

t.test('parameters declared on the path item are read like the operation\'s own', async (t) => {
  const app = await build(t, {
    document: edited((d) => {
      const item = d.paths['/pets/{petId}']
      item.parameters = [item.get.parameters.shift()]
    })
  })
  const res = await app.inject({ url: '/v1/pets/abc', headers: AUTH })
  t.equal(res.statusCode, 400)
  t.same(res.json(), errorBody('invalid_request', 'params/petId must be integer', 400))
})

t.test('an operation without query parameters refuses any query parameter', async (t) => {
  const app = await build(t)
  // A read the document gives no query parameter, whichever that is.
  const bare = [...apiDocument.operations.values()].find((op) => op.method === 'GET' && !apiDocument.parameters(op.operationId).some((parameter) => parameter.in === 'query'))
  t.ok(bare, 'the document has a read without query parameters')
  const res = await app.inject({ url: `/v1${bare!.path.replace(/\{[^}]+\}/g, '1')}?zzFixtureOnly=1`, headers: AUTH })
  t.equal(res.statusCode, 400)
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  t.same(res.json(), errorBody('invalid_request', "querystring must NOT have additional property 'zzFixtureOnly'", 400))
})

t.test('npm run codegen refuses a document the service could not honour, names the problem, and writes nothing', async (t) => {
  // A copy of what codegen reads and writes; the sources and packages are the project's own.
  const copy = t.testdir({ spec: {}, scripts: {}, generated: {}, client: { src: { generated: {} } } })
  await cp(join(root, 'scripts'), join(copy, 'scripts'), { recursive: true })
  await symlink(join(root, 'migrations'), join(copy, 'migrations'))
  await symlink(join(root, 'src'), join(copy, 'src'))
  await symlink(join(root, 'node_modules'), join(copy, 'node_modules'))
  const broken = parse(apiDocument.yaml, { intAsBigInt: true })
  broken.paths['/pets'].post.requestBody.content = { 'text/plain': { schema: { type: 'string' } } }
  await writeFile(join(copy, 'spec/openapi.yaml'), stringify(broken))
  const missingId = parse(apiDocument.yaml, { intAsBigInt: true })
  delete missingId.paths['/pets'].get.operationId

  const codegen = promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/codegen.ts'], { cwd: copy })
  await t.rejects(codegen, {
    code: 1,
    stderr: 'npm run codegen: spec/openapi.yaml declares what the service cannot honour:\n' +
      '  - createPet: request body media type text/plain is not one the service reads (application/json, application/merge-patch+json)\n'
  })
  t.same(await readdir(join(copy, 'generated')), [], 'nothing written')

  await writeFile(join(copy, 'spec/openapi.yaml'), stringify(missingId))
  await t.rejects(promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/codegen.ts'], { cwd: copy }), {
    code: 1,
    stderr: 'npm run codegen: spec/openapi.yaml: GET /pets has no operationId\n'
  })
  t.same(await readdir(join(copy, 'generated')), [], 'nothing written')
})
