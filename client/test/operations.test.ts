/**
 * The client's methods follow from the document: a document with `getOrder` added, and
 * `updatePet` redeclared as a merge patch that also takes a query, gets their methods,
 * sending the right requests and typed, with nothing written by hand but what
 * `npm run codegen` writes. And an operation the client could not call as declared fails
 * codegen, named.
 */
import { cpSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import t from 'tap'
import ts from 'typescript'
import { parseDocument } from 'yaml'
import { clientOperations } from '../../scripts/lib/client-operations.ts'
import { ApiDocument, specPath } from '../../src/contract/document.ts'
import { checkDocument } from '../../src/contract/start-checks.ts'
import { EMITTED_EVENTS } from '../../src/features/events/types.ts'
import { tempDir } from '../../test/helpers/process.ts'
import { methodsOf } from '../src/client.ts'
import type { Operation } from '../src/operation.ts'

const json = (schema: string) => ({ 'application/json': { schema: { $ref: `#/components/schemas/${schema}` } } })

/**
 * spec/openapi.yaml, with getOrder added and updatePet redeclared with a query. The query
 * parameter has a name no real change picks, so the document gaining one does not collide.
 */
function extendedSpec (): string {
  const spec = parseDocument(readFileSync(specPath, 'utf8'), { intAsBigInt: true })
  spec.setIn(['paths', '/store/orders/{orderId}', 'get'], spec.createNode({
    operationId: 'getOrder',
    summary: 'Get an order',
    'x-stability': 'experimental',
    parameters: [{ $ref: '#/components/parameters/OrderId' }, { $ref: '#/components/parameters/IfNoneMatch' }],
    responses: { 200: { description: 'The order.', content: json('Order') }, 404: { $ref: '#/components/responses/NotFound' } }
  }))
  spec.setIn(['paths', '/pets/{petId}', 'patch'], spec.createNode({
    operationId: 'updatePet',
    summary: 'Change a pet',
    parameters: [
      { $ref: '#/components/parameters/PetId' },
      { name: 'zzFixtureNotify', in: 'query', required: false, schema: { type: 'boolean' } },
      { name: 'If-Match', in: 'header', required: false, schema: { type: 'string' } }
    ],
    requestBody: {
      required: true,
      content: {
        'application/merge-patch+json': {
          schema: { type: 'object', additionalProperties: false, properties: { name: { type: 'string' }, status: { $ref: '#/components/schemas/PetStatus' } } }
        }
      }
    },
    responses: { 200: { description: 'The pet, changed.', content: json('Pet') }, 404: { $ref: '#/components/responses/NotFound' } }
  }))
  return String(spec)
}

const spec = extendedSpec()
const document = new ApiDocument(spec, 'the extended document')

/** What codegen writes for `document`, imported. */
async function tableOf (dir: string): Promise<Readonly<Record<string, Operation>>> {
  const file = join(dir, 'operations.ts')
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
  writeFileSync(file, clientOperations(document))
  return (await import(pathToFileURL(file).href)).OPERATIONS
}

t.test('a new operation in the document is a new entry of the table, and a method that calls it', async (t) => {
  t.doesNotThrow(() => checkDocument(document, EMITTED_EVENTS), 'a document the service could serve')
  const table = await tableOf(tempDir(t))
  t.strictSame(table.getOrder, {
    method: 'GET', path: '/store/orders/{orderId}', pathParameters: ['orderId'], body: null, defaulted: [], query: 'none', idempotencyKey: false, ifMatch: false, paged: false, answer: 'json'
  })
  t.strictSame(table.updatePet, {
    method: 'PATCH', path: '/pets/{petId}', pathParameters: ['petId'], body: 'application/merge-patch+json', defaulted: [], query: 'optional', idempotencyKey: false, ifMatch: true, paged: false, answer: 'json'
  })
  t.strictSame(table.placeOrder!.defaulted, ['quantity', 'complete'], 'the body fields with a default')

  const sent: Array<{ method: string, url: string, headers: Record<string, string>, body: string }> = []
  const answers = [
    Response.json({ id: 1, petId: 2, quantity: 1, complete: false }),
    new Response('{"id":9007199254740993,"name":"Rexy","categoryId":1}', { headers: { 'content-type': 'application/json' } }),
    Response.json({ id: 3, name: 'Rex', categoryId: 1 }),
    Response.json({ code: 'not_found', message: 'Order 7 not found', status: 404 }, { status: 404, headers: { 'x-request-id': 'r-7' } })
  ]
  const methods = methodsOf(table, {
    baseUrl: 'http://petstore.test/v1',
    apiKey: 'k',
    retry: false,
    fetch: async (request) => {
      const headers = Object.fromEntries([...request.headers].filter(([name]) => name !== 'content-length'))
      sent.push({ method: request.method, url: request.url, headers, body: await request.text() })
      return answers.shift()!
    }
  })
  // A method per operation of the document, and a `<operationId>Page` for each paged one.
  t.strictSame(Object.keys(table).sort(), [...document.operations.keys()].sort(), 'the table has every operation of the document')
  const expected = [...document.operations.keys()].flatMap((id) => table[id]!.paged ? [id, `${id}Page`] : [id])
  t.ok(expected.includes('getOrder') && expected.includes('listPetsPage'), 'among them the added one and a paged one')
  t.strictSame(Object.keys(methods).sort(), expected.sort())

  t.strictSame(await methods.getOrder!(1), { id: 1, petId: 2, quantity: 1, complete: false })
  t.strictSame(await methods.updatePet!(9007199254740993n, { name: 'Rexy' }, { zzFixtureNotify: true }), { id: 9007199254740993n, name: 'Rexy', categoryId: 1 },
    'the answer parsed, its int64 exact')
  t.strictSame(await methods.updatePet!(3, { status: null }, undefined, { ifMatch: '"abc"' }), { id: 3, name: 'Rex', categoryId: 1 })
  await t.rejects(methods.getOrder!(7) as Promise<unknown>, { name: 'PetstoreError', status: 404, code: 'not_found', message: 'Order 7 not found', requestId: 'r-7' })
  await t.rejects(methods.getOrder!(2 ** 60) as Promise<unknown>, new RangeError(`orderId is ${2 ** 60}, beyond 2^53 and so already rounded: pass it as a bigint`))
  t.strictSame(sent, [
    { method: 'GET', url: 'http://petstore.test/v1/store/orders/1', headers: { authorization: 'Bearer k' }, body: '' },
    {
      method: 'PATCH',
      url: 'http://petstore.test/v1/pets/9007199254740993?zzFixtureNotify=true',
      headers: { authorization: 'Bearer k', 'content-type': 'application/merge-patch+json' },
      body: '{"name":"Rexy"}'
    },
    {
      method: 'PATCH',
      url: 'http://petstore.test/v1/pets/3',
      headers: { authorization: 'Bearer k', 'content-type': 'application/merge-patch+json', 'if-match': '"abc"' },
      body: '{"status":null}'
    },
    { method: 'GET', url: 'http://petstore.test/v1/store/orders/7', headers: { authorization: 'Bearer k' }, body: '' }
  ], 'path parameters, then the body as its declared media type, then the query, If-Match when given; nothing sent for a rounded id')
})

t.test('the new methods are typed from the document: arguments, answers, and what is refused', async (t) => {
  // The client's sources, with the generated files codegen makes from the extended document.
  const dir = tempDir(t)
  cpSync(fileURLToPath(new URL('../src', import.meta.url)), join(dir, 'src'), { recursive: true })
  writeFileSync(join(dir, 'src/generated/openapi.ts'), astToString(await openapiTS(spec)))
  writeFileSync(join(dir, 'src/generated/operations.ts'), clientOperations(document))
  symlinkSync(fileURLToPath(new URL('../../node_modules', import.meta.url)), join(dir, 'node_modules'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }))
  const check = join(dir, 'check.ts')
  writeFileSync(check, [
    "import { createPetstoreClient, type Order, type Pet } from './src/index.ts'",
    "const client = createPetstoreClient({ baseUrl: 'http://petstore.test/v1', apiKey: 'k' })",
    'const order: Order = await client.getOrder(1)',
    "const pet: Pet = await client.updatePet(1, { name: 'Rexy' }, { zzFixtureNotify: true }, { signal: AbortSignal.timeout(1000) })",
    "await client.updatePet(1, { status: 'sold' })",
    "await client.updatePet(1, { name: 'Rex' }, {}, { ifMatch: '\"abc\"' })",
    'console.log(order, pet, await client.getPet(1))',
    'client.getOrder = async () => order // a method may be replaced, as a test double does',
    '// @ts-expect-error: the pet\'s id comes first',
    "await client.updatePet({ name: 'Rexy' })",
    '// @ts-expect-error: not a field of the patch',
    "await client.updatePet(1, { colour: 'red' })",
    '// @ts-expect-error: getOrder answers an Order',
    'export const wrong: Pet = await client.getOrder(1)',
    '// @ts-expect-error: updatePet declares no Idempotency-Key',
    "await client.updatePet(1, {}, {}, { idempotencyKey: 'k' })",
    '// @ts-expect-error: getOrder declares no If-Match',
    "await client.getOrder(1, { ifMatch: '*' })"
  ].join('\n'))

  const options: ts.CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    strict: true,
    noEmit: true,
    allowImportingTsExtensions: true,
    skipLibCheck: true
  }
  const service = ts.createLanguageService({
    getScriptFileNames: () => [check],
    getScriptVersion: () => '1',
    getScriptSnapshot: (file) => ts.sys.fileExists(file) ? ts.ScriptSnapshot.fromString(ts.sys.readFile(file)!) : undefined,
    getCurrentDirectory: () => dir,
    getCompilationSettings: () => options,
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile
  })
  const messages = (diagnostics: ts.Diagnostic[]) => diagnostics.map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
  t.strictSame(messages([...service.getSyntacticDiagnostics(check), ...service.getSemanticDiagnostics(check)]), [], 'it type-checks, each @ts-expect-error refused')
  t.strictSame(messages(service.getSuggestionDiagnostics(check)).filter((message) => message.includes('deprecated')), ["'getPet' is deprecated."],
    'getPet is deprecated, as the document says')
  const hover = service.getQuickInfoAtPosition(check, readFileSync(check, 'utf8').indexOf('getOrder') + 1)!
  t.equal(ts.displayPartsToString(hover.documentation), 'Get an order (experimental in the service).', 'its JSDoc is the summary')
})

/** A document of `paths`, with what every document has. */
function documentOf (paths: object): ApiDocument {
  return new ApiDocument(JSON.stringify({ openapi: '3.1.0', info: { title: 'things', version: '1' }, servers: [{ url: '/v1' }], paths }), 'things.yaml')
}

t.test('an operation the client could not call as declared fails codegen, named', async (t) => {
  const answer = { description: 'ok', content: { 'application/json': { schema: { type: 'object' } } } }
  const list = { description: 'ok', content: { 'application/json': { schema: { type: 'array' } } } }
  const cursor = { name: 'cursor', in: 'query', schema: { type: 'string' } }
  const bad = documentOf({
    '/things': {
      post: { operationId: 'addThing', requestBody: { required: true, content: { 'text/plain': { schema: { type: 'string' } } } }, responses: { 201: answer } },
      get: { operationId: 'listThings', parameters: [cursor, { name: 'X-Tenant', in: 'header', required: true, schema: { type: 'string' } }], responses: { 200: answer } },
      patch: { operationId: 'editThings', parameters: [{ name: 'If-Match', in: 'header', required: true, schema: { type: 'string' } }], responses: { 204: { description: 'edited' } } }
    },
    '/things/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      delete: { operationId: 'removeThing', responses: { 200: answer, 204: { description: 'gone' } } },
      head: { operationId: 'thing-exists', responses: { 200: { description: 'there' } } },
      put: {
        operationId: 'replaceThing',
        parameters: [{ name: 'session', in: 'cookie', schema: { type: 'string' } }],
        requestBody: { content: { 'application/json': { schema: { anyOf: [{ type: 'object' }, { type: 'array' }] } } } },
        responses: { 200: { description: 'ok', content: { 'text/plain': { schema: { type: 'string' } } } } }
      },
      patch: { operationId: 'touchThing', responses: { 404: { description: 'no such thing' } } }
    },
    '/widgets': { get: { operationId: 'listWidgets', parameters: [cursor], responses: { 200: list } } },
    '/widgets/page': { get: { operationId: 'listWidgetsPage', responses: { 200: answer } } }
  })
  t.throws(() => clientOperations(bad), new Error([
    'things.yaml has operations the client cannot make a method of:',
    'addThing: a POST must declare the Idempotency-Key header, since the client retries every request it sends',
    'addThing: the client sends a body as application/merge-patch+json or application/json, which the request body does not declare',
    'listThings: header parameter X-Tenant: the client\'s methods take path and query parameters and a body, and send no other header',
    'listThings: a list paged by cursor answers a JSON array in every success',
    'editThings: header parameter If-Match: the client\'s methods take path and query parameters and a body, and send no other header',
    'removeThing: some of its successes have a body and some have none; a method answers one or the other',
    'removeThing: a DELETE whose answer was lost counts as done when its retry is 404, so it can answer no body',
    'thing-exists: an operationId names a method, so it must be a JavaScript identifier (and not "then")',
    'thing-exists: the client has methods for GET, PUT, POST, PATCH, DELETE only, not HEAD',
    'replaceThing: cookie parameter session: the client\'s methods take path and query parameters and a body, and send no other cookie',
    'replaceThing: an optional request body cannot be told from a missing argument; declare it required: true',
    'replaceThing: the client cannot tell which fields of a request body with anyOf or oneOf have defaults',
    'replaceThing: response 200 is not JSON',
    'touchThing: it declares no success (2xx) answer',
    'listWidgets: its one-page method would be listWidgetsPage, which is another operation\'s name'
  ].join('\n  - ')))
})

t.test('a method\'s JSDoc and argument names come from the document', async (t) => {
  const text = clientOperations(documentOf({
    '/files/{file-id}': {
      get: {
        operationId: 'getFile',
        deprecated: true,
        'x-successor': '/files',
        parameters: [{ name: 'file-id', in: 'path', required: true, schema: { type: 'string' } }],
        responses: { 204: { description: 'there' } }
      }
    }
  }))
  t.match(text, `
    /**
     * getFile.
     * @deprecated The service may remove getFile: use GET /files.
     */
    getFile: { method: "GET", path: "/files/{file-id}", pathParameters: ["file-id"] as [fileId: "file-id"], body: null, defaulted: [], query: "none", idempotencyKey: false, ifMatch: false, paged: false, answer: "none" }
`, 'no summary: the operationId; no sunset; a successor the document does not have; a path parameter named as no argument can be')
})
