/**
 * No stale answer, whatever the writes: random writes (through the API of one instance or
 * another, or with SQL as another program would) interleaved with random reads, some of
 * them at once, and every read answered after the writes before it were acknowledged is
 * the answer of an instance with no cache on the same database, byte for byte, `Link`
 * included. On one instance and on two; on SQLite and, with `npm run test:postgres`, on
 * PostgreSQL.
 */
import { join } from 'node:path'
import fc from 'fast-check'
import type { FastifyInstance, InjectOptions } from 'fastify'
import t, { type Test } from 'tap'
import { encodeCursor } from '../../../src/contract/paging.ts'
import { AUTH, build, JSON_HEADERS, TEST_DATABASE, testDatabaseUrl } from '../../helpers/app.ts'
import { anotherProgram } from '../../helpers/another-program.ts'
import { tempDir } from '../../helpers/process.ts'

const postgres = TEST_DATABASE === 'postgres'
// A few ids and limits, so that reads repeat, and are cached, between the writes.
const id = fc.integer({ min: 1, max: 8 })
const status = fc.constantFrom(undefined, 'available', 'pending', 'sold')
const via = fc.nat(1)

const read = fc.oneof(
  id.map((id) => `/v1/pets/${id}`),
  fc.tuple(fc.integer({ min: 1, max: 3 }), status, fc.option(id)).map(([limit, status, after]) =>
    `/v1/pets?limit=${limit}${status === undefined ? '' : `&status=${status}`}${after === null ? '' : `&cursor=${encodeCursor(after)}`}`),
  fc.integer({ min: 1, max: 4 }).map((id) => `/v1/store/orders/${id}`),
  fc.tuple(fc.integer({ min: 1, max: 3 }), fc.option(fc.integer({ min: 1, max: 4 }))).map(([limit, after]) =>
    `/v1/store/orders?limit=${limit}${after === null ? '' : `&cursor=${encodeCursor(after)}`}`)
).map((url): InjectOptions => ({ url, headers: AUTH }))

const write = fc.oneof(
  status.map((status): InjectOptions => ({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'new', categoryId: 1, status } })),
  fc.tuple(id, fc.oneof(status.filter((s) => s !== undefined).map((status) => ({ status })), fc.constantFrom({ name: 'a' }, { name: 'b' })))
    .map(([id, patch]): InjectOptions => ({ method: 'PATCH', url: `/v1/pets/${id}`, headers: { ...JSON_HEADERS, 'content-type': 'application/merge-patch+json' }, payload: patch })),
  id.map((petId): InjectOptions => ({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId, quantity: 1 } })),
  fc.integer({ min: 1, max: 4 }).map((orderId): InjectOptions => ({ method: 'DELETE', url: `/v1/store/orders/${orderId}`, headers: AUTH })),
  fc.integer({ min: 1, max: 4 }).map((orderId): InjectOptions => ({ method: 'PATCH', url: `/v1/store/orders/${orderId}`, headers: { ...JSON_HEADERS, 'content-type': 'application/merge-patch+json' }, payload: { complete: true } }))
)

type Step =
  | { kind: 'read', via: number, request: InjectOptions }
  | { kind: 'write', via: number, request: InjectOptions }
  | { kind: 'sql', id: number, name: string }
  | { kind: 'together', steps: Array<{ via: number, request: InjectOptions }> }

const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.record({ kind: fc.constant('read' as const), via, request: read }), weight: 6 },
  { arbitrary: fc.record({ kind: fc.constant('write' as const), via, request: write }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('sql' as const), id, name: fc.constantFrom('x', 'y') }), weight: 1 },
  // Reads and writes at once: a read's query may run before or after a write it overlaps,
  // and the answer it keeps must not outlive the write.
  { arbitrary: fc.record({ kind: fc.constant('together' as const), steps: fc.array(fc.record({ via, request: fc.oneof(read, write) }), { minLength: 2, maxLength: 5 }) }), weight: 2 }
)

async function checkFreshness (t: Test, instances: number): Promise<void> {
  const url = postgres ? await testDatabaseUrl(t) : join(tempDir(t), 'petstore.db')
  const apps: FastifyInstance[] = []
  // No rate limit: the runs make thousands of requests with one key.
  const rateLimit = { perKey: 0 }
  for (let i = 0; i < instances; i++) apps.push(await build(t, { database: { url }, rateLimit }))
  const truth = await build(t, { database: { url }, responseCacheBytes: 0, rateLimit })
  const sqlRun = await anotherProgram(t, url)
  let reads = 0

  const compare = async (app: FastifyInstance, request: InjectOptions) => {
    // Twice: the first may only be kept, the second served from the cache.
    for (let i = 0; i < 2; i++) {
      const got = await app.inject(request)
      const expected = await truth.inject(request)
      reads++
      const shown = (res: typeof got) => `${res.statusCode} ${String(res.headers.link ?? '')} ${res.body}`
      if (shown(got) !== shown(expected)) throw new Error(`stale answer to ${request.url}: ${shown(got)}, where the database says ${shown(expected)}`)
    }
  }

  await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 40 }), async (steps) => {
    for (const step of steps) {
      if (step.kind === 'read') await compare(apps[step.via % instances]!, step.request)
      else if (step.kind === 'write') await apps[step.via % instances]!.inject(step.request)
      else if (step.kind === 'sql') await sqlRun(`update pets set name = '${step.name}' where id = ${step.id}`)
      else {
        await Promise.all(step.steps.map(({ via, request }) => apps[via % instances]!.inject(request)))
        for (const { via, request } of step.steps) if (request.method === undefined) await compare(apps[via % instances]!, request)
      }
    }
  }), { numRuns: 50 })
  t.ok(reads > 200, `${reads} reads, every one fresh`)
  t.ok(apps.every((app) => app.responseCache!.size > 0), 'and the caches served some of them')
}

t.test('one instance: no read is staler than the database', async (t) => checkFreshness(t, 1))
t.test('two instances on one database: no read on either is staler than the database', async (t) => checkFreshness(t, 2))
