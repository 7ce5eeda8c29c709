/**
 * What every fuzz file shares: the seed and run count, an app with no rate limit, and
 * `send`, which checks what holds for every answer.
 *
 * FUZZ_SEED and FUZZ_RUNS pick the seed and the cases per property (CI uses the defaults);
 * `npm run fuzz` runs long with a random seed. fast-check prints the seed and path of any
 * failure, so it can be replayed with FUZZ_SEED.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { stringify } from 'lossless-json'
import type { Test } from 'tap'
import { apiDocument, type JsonObject } from '../../src/contract/document.ts'
import { parseNetworks } from '../../src/config/values.ts'
import { AUTH, build } from '../helpers/app.ts'
import { walkPages } from '../helpers/store.ts'
import { contractViolations } from './contract.ts'
import type { FuzzRequest } from './requests.ts'

export const seed = Number(process.env.FUZZ_SEED ?? 20261122)
export const numRuns = Number(process.env.FUZZ_RUNS ?? 1000)
// Thousands of cases take a while on two busy cores; the default per-file limit is too short.
export const timeoutMs = Number(process.env.TAP_TIMEOUT ?? 600) * 1000

let cases = 0
export const caseCount = () => cases

/**
 * The app of ../helpers/app.ts with no rate limit: the fuzzer is one client sending thousands
 * of requests on purpose. (Overload shedding is off there too: thousands of cases on a busy
 * machine lag the event loop, and a 503 "overloaded" would read as the 5xx the fuzzing looks for.)
 */
export function makeApp (t: Test): Promise<FastifyInstance> {
  // Webhook URLs are fuzzed too: no host name resolves, and no delivery is tried again.
  // 127.0.0.1 is let through, so that an endpoint can be added (`LOCAL_WEBHOOK_URL`).
  const lookup = async (host: string) => { throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }) }
  return build(t, { rateLimit: { perKey: 0, anonymous: 1_000_000 }, webhooks: { lookup, retryDelaysMs: [], allowedNetworks: parseNetworks('127.0.0.0/8') } })
}

/** A webhook URL the fuzzed app takes: plain http to a port of 127.0.0.1 where nothing listens. */
export const LOCAL_WEBHOOK_URL = 'http://127.0.0.1:9/'

/** Sends one request and checks what holds for every answer. */
export async function send (app: FastifyInstance, operationId: string | undefined, request: InjectOptions) {
  cases++
  const response = await app.inject(request)
  if (response.statusCode >= 500) throw new Error(`5xx for ${JSON.stringify(request).slice(0, 300)}: ${response.body}`)
  // A HEAD answer has no body by definition (RFC 9110 section 9.3.2).
  if (response.statusCode >= 400 && request.method !== 'HEAD') {
    const body = JSON.parse(response.body)
    if (body.status !== response.statusCode || typeof body.code !== 'string' || typeof body.message !== 'string' || Object.keys(body).length !== 3) {
      throw new Error(`not an Error body: ${response.body}`)
    }
  }
  if (operationId !== undefined) {
    const problems = contractViolations(operationId, response)
    if (problems.length > 0) throw new Error(`${operationId} answer breaks the contract: ${problems.join('; ')}`)
  }
  return response
}

/** Sends a generated request (./requests.ts) with the test key, and checks it as `send` does. */
export const sendRequest = (app: FastifyInstance, request: FuzzRequest) => send(app, request.operationId, {
  method: request.method as 'GET',
  url: request.url,
  headers: { ...AUTH, ...request.headers },
  ...(request.payload !== undefined && { payload: request.payload })
})

/** Whether the router refused the request's path as undecodable, before any operation was chosen. */
export const unrouted = (response: LightMyRequestResponse) => response.statusCode === 400 && / is not a valid url component$/.test(JSON.parse(response.body).message)

/**
 * What a page of a listing promises (the document's Pagination): at most `limit` items (its
 * default when none was sent), in ascending id order; a query parameter named as a property
 * of the items keeps only the items with that value; the `Link` to the next page keeps every
 * query parameter sent but the cursor. An empty list when the page keeps them all.
 */
export function pageProblems (request: FuzzRequest, response: LightMyRequestResponse): string[] {
  const query = apiDocument.parameters(request.operationId).filter((parameter) => parameter.in === 'query')
  const limit = (request.values.limit ?? (query.find((parameter) => parameter.name === 'limit')?.schema as JsonObject).default) as number
  const responses = apiDocument.dereference(apiDocument.operation(request.operationId).operation.responses!) as any
  const itemProperties = responses['200'].content['application/json'].schema.items.properties as JsonObject
  const items = JSON.parse(response.body) as Array<Record<string, unknown>>
  const problems: string[] = []
  if (items.length > limit) problems.push(`${items.length} items for limit ${limit}`)
  if (items.some((item, i) => i > 0 && (item.id as number) <= (items[i - 1]!.id as number))) problems.push('not in ascending id order')
  const link = response.headers.link as string | undefined
  const linked = link === undefined ? undefined : new URL(/^<([^>]+)>/.exec(link)![1]!, 'http://localhost').searchParams
  for (const name of query.map((parameter) => String(parameter.name))) {
    const value = request.values[name]
    if (value === undefined || name === 'cursor') continue
    if (name in itemProperties && items.some((item) => item[name] !== value)) problems.push(`the ${name} filter is not kept`)
    if (linked !== undefined && linked.get(name) !== String(value)) problems.push(`Link drops ${name}: ${link}`)
  }
  return problems
}

/** JSON text for a value that may hold BigInts or raw numbers such as 1e400. */
export const json = (value: unknown) => stringify(value) as string

/** Every item of a listing, following `Link rel="next"` from `url`, each page checked as `send` checks it. */
export async function walk (app: FastifyInstance, operationId: string, url: string): Promise<Array<{ id: number }>> {
  const pages = await walkPages(app, url, (request) => send(app, operationId, request))
  return pages.flatMap((page) => JSON.parse(page.body))
}
