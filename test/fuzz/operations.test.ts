/**
 * Every operation of the document, fuzzed from its own declaration (./requests.ts): each
 * declared path, query and header parameter, and the body under each declared media type,
 * valid and with one thing changed. An operation or a parameter added to the document is
 * fuzzed here with no change to this file. What holds for every answer is in ./harness.ts;
 * the pet and order files add what each operation promises beyond its schemas.
 */
import fc from 'fast-check'
import t from 'tap'
import { apiDocument } from '../../src/contract/document.ts'
import { JSON_HEADERS } from '../helpers/app.ts'
import { addPets, rowCount } from '../helpers/store.ts'
import { valid, type Schema } from './arbitraries.ts'
import { accepts } from './contract.ts'
import { caseCount, LOCAL_WEBHOOK_URL, makeApp, numRuns, seed, sendRequest, timeoutMs } from './harness.ts'
import { mutatedRequest, validRequest, type Choices } from './requests.ts'

const operationIds = [...apiDocument.operations.keys()]

/**
 * The 400s that a request its schemas accept may still get: what a schema cannot say. A
 * cursor the service did not make, on any list that takes one; and by operation, the rest.
 * Any other 400 for such a request is a failure.
 */
const BEYOND_THE_SCHEMAS: Record<string, RegExp> = {
  placeOrder: /^body\/petId must name an existing pet/,
  createWebhookEndpoint: /^body\/url is not a URL webhooks can go to: /,
  updateWebhookEndpoint: /^body\/url is not a URL webhooks can go to: /
}
const takesCursor = (operationId: string) => apiDocument.parameters(operationId).some((p) => p.in === 'query' && p.name === 'cursor')
const beyondTheSchemas = (operationId: string, message: string) =>
  (takesCursor(operationId) && /^querystring\/cursor is malformed/.test(message)) || (BEYOND_THE_SCHEMAS[operationId]?.test(message) ?? false)

/**
 * Bodies as their schemas give them, but mostly with a webhook `url` the service will call:
 * random text is no URL, and an endpoint refused for its URL stores none of its text. The
 * text the `url` schema takes follows LOCAL_WEBHOOK_URL, so the endpoint's fields, NULs and
 * lone surrogates included where a schema takes them, reach the database.
 */
function callableUrls (schema: Schema): fc.Arbitrary<unknown> {
  const url = schema.properties?.url as Schema | undefined
  if (url === undefined) return valid(schema)
  return fc.tuple(valid(schema), fc.option(valid(url), { nil: undefined, freq: 5 }))
    .map(([body, path]) => path === undefined || (body as Record<string, unknown>).url === undefined ? body : { ...body as object, url: LOCAL_WEBHOOK_URL + String(path) })
    .filter((body) => accepts(schema, body))
}

/**
 * A feed read's `wait` holds an empty page for that many seconds: valid requests here wait
 * none (ours or the default), so that a thousand of them stay quick. The values the schema
 * refuses are fuzzed below; waiting itself is tested in test/features/events/waiting.test.ts.
 * Bodies are made by `callableUrls`.
 */
const CHOICES: Choices = { parameters: { wait: fc.constantFrom(undefined, 0) }, body: callableUrls }

t.setTimeout(timeoutMs)

/** An app with a few pets, orders (some complete) and webhook endpoints, so that ids the schemas give sometimes exist. */
async function storeApp (t: Parameters<typeof makeApp>[0]) {
  const app = await makeApp(t)
  const [pet] = await addPets(app, 5, { statuses: ['available', 'sold'] })
  for (let i = 0; i < 6; i++) await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: pet, complete: i % 2 === 0 } })
  for (const events of [['*'], ['pet.created']]) await app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: JSON_HEADERS, payload: { url: LOCAL_WEBHOOK_URL, events } })
  return app
}

const records = async (app: Parameters<typeof rowCount>[0]) => (await Promise.all((['pets', 'orders', 'webhook_endpoints'] as const).map((table) => rowCount(app, table)))).join()

t.test('every operation: requests its declaration accepts are answered as the document says', async (t) => {
  const app = await storeApp(t)
  const requests = fc.oneof(...operationIds.map((operationId) => validRequest(apiDocument, operationId, CHOICES)))
  await fc.assert(fc.asyncProperty(requests, async (request) => {
    const response = await sendRequest(app, request)
    if (response.statusCode !== 400) return
    const { message } = JSON.parse(response.body)
    if (!beyondTheSchemas(request.operationId, message)) {
      throw new Error(`${request.operationId}: a valid request was refused: ${message} (${request.method} ${request.url} ${JSON.stringify(request.headers)} ${request.payload?.slice(0, 200) ?? ''})`)
    }
  }), { seed, numRuns })
})

t.test('every operation: one thing changed that its declaration refuses is a 400 naming it, and changes nothing', async (t) => {
  const app = await storeApp(t)
  const requests = fc.oneof(...operationIds.map((operationId) => mutatedRequest(apiDocument, operationId)))
  await fc.assert(fc.asyncProperty(requests, async (request) => {
    const before = await records(app)
    const response = await sendRequest(app, request)
    const what = `${request.operationId}, ${request.mutation}: ${request.method} ${request.url} ${JSON.stringify(request.headers)} ${request.payload?.slice(0, 200) ?? ''}`
    if (response.statusCode !== 400) throw new Error(`${what}: expected 400, got ${response.statusCode}: ${response.body}`)
    const { message } = JSON.parse(response.body)
    if (!request.names.test(message)) throw new Error(`${what}: the message names something else: ${message}`)
    if (await records(app) !== before) throw new Error(`${what}: a refused request changed the database`)
  }), { seed, numRuns })
  t.comment(`${caseCount()} fuzz cases in this file`)
})
