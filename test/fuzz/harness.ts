/**
 * What every fuzz file shares: the seed and run count, an app with no rate limit, and
 * `send`, which checks what holds for every answer.
 *
 * FUZZ_SEED and FUZZ_RUNS pick the seed and the cases per property (CI uses the defaults);
 * `npm run fuzz` runs long with a random seed. fast-check prints the seed and path of any
 * failure, so it can be replayed with FUZZ_SEED.
 */
import type { FastifyInstance, InjectOptions } from 'fastify'
import { stringify } from 'lossless-json'
import type { Test } from 'tap'
import { apiDocument } from '../../src/contract/document.ts'
import { routeSchema } from '../../src/contract/route-schema.ts'
import { build } from '../helpers/app.ts'
import { walkPages } from '../helpers/store.ts'
import type { Schema } from './arbitraries.ts'
import { contractViolations } from './contract.ts'

export const seed = Number(process.env.FUZZ_SEED ?? 20261122)
export const numRuns = Number(process.env.FUZZ_RUNS ?? 1000)
// Thousands of cases take a while on two busy cores; the default per-file limit is too short.
export const timeoutMs = Number(process.env.TAP_TIMEOUT ?? 600) * 1000

/** The route schemas of an operation, as the fuzzers derive values from them. */
export const schemaOf = (operationId: string) => routeSchema(apiDocument, operationId) as { body?: Schema, querystring?: Schema, params?: Schema, headers?: Schema }

let cases = 0
export const caseCount = () => cases

/**
 * The app of ../helpers/app.ts with no rate limit: the fuzzer is one client sending thousands
 * of requests on purpose. (Overload shedding is off there too: thousands of cases on a busy
 * machine lag the event loop, and a 503 "overloaded" would read as the 5xx the fuzzing looks for.)
 */
export function makeApp (t: Test): Promise<FastifyInstance> {
  return build(t, { rateLimit: { perKey: 0, anonymous: 1_000_000 } })
}

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

/** JSON text for a value that may hold BigInts or raw numbers such as 1e400. */
export const json = (value: unknown) => stringify(value) as string

/** Every item of a listing, following `Link rel="next"` from `url`, each page checked as `send` checks it. */
export async function walk (app: FastifyInstance, operationId: string, url: string): Promise<Array<{ id: number }>> {
  const pages = await walkPages(app, url, (request) => send(app, operationId, request))
  return pages.flatMap((page) => JSON.parse(page.body))
}
