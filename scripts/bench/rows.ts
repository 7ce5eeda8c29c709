/**
 * The benchmark's rows: the requests each one sends and the peers it is measured against,
 * on SQLite, on PostgreSQL, with a webhook endpoint and with tracing; and the set-up some of
 * them need (orders to list, a scoped key).
 */
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import type { Row } from './compare.ts'
import { trafficMix } from './mix.ts'
import { headers, newPet } from './run.ts'
import { setupFetch } from './setup-fetch.ts'

const below = (count: number) => 1 + Math.floor(Math.random() * count)
// A cursor as the service makes them (an id, base64url): the page after a random pet.
const randomCursor = (count: number) => Buffer.from(String(below(count - 20))).toString('base64url')
// Pets 2, 6, 10 ... (`pending` in the seed): never on order, so any edit of them is allowed.
const unorderedPet = (count: number) => 4 * below(Math.floor(count / 4)) - 2

/** The orders placeOrders made: open, one per `available` pet. */
const orderIds: Array<number | string> = []
const randomOrder = () => orderIds[Math.floor(Math.random() * orderIds.length)]

/**
 * Orders to list: placed through the API, as a client would, one for each `available` pet
 * (every fourth pet of the seed, from pet 1), which takes it off sale.
 */
export async function placeOrders (base: string, count: number) {
  for (let i = 1; i <= count; i++) {
    const res = await setupFetch(`${base}/v1/store/orders`, {
      method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ petId: 4 * i - 3, quantity: 1 })
    })
    if (res.status !== 201) throw new Error(`placing orders failed: ${res.status} ${await res.text()}`)
    orderIds.push((await res.json() as { id: number | string }).id)
  }
}

// The tag of the first page, as a client that already holds it would send it back.
const currentTag = async (base: string) =>
  ({ 'if-none-match': (await setupFetch(`${base}/v1/pets?limit=20`, { headers })).headers.get('etag') ?? '' })

/** A key of the database (not of PETSTORE_API_KEYS) that may only read pets, as `npm run keys` makes it. */
let scopedKey = ''
const root = fileURLToPath(new URL('../..', import.meta.url))
/** Makes the scoped key in the database `file`, before the service starts on it. */
export function createScopedKey (file: string): void {
  const printed = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/keys.ts', 'create', '--name', 'bench-reader', '--scopes', 'pets:read', '--json'], {
    cwd: root, env: { ...process.env, DATABASE_URL: file }, encoding: 'utf8'
  })
  scopedKey = (JSON.parse(printed) as { key: string }).key
}

// Each edit a real change: a name, a ship date no request sent before.
let edits = 0
const rename = () => JSON.stringify({ name: `Rex ${++edits}` })
const reschedule = () => JSON.stringify({ shipDate: new Date(Date.UTC(2030, 0, 1) + ++edits * 1000).toISOString() })
const MERGE_PATCH = 'application/merge-patch+json'

export const rows: Row[] = [
  { name: 'GET /v1/pets?limit=20', path: () => '/v1/pets?limit=20', peers: ['service', 'uncached', 'express', 'baseline', 'ceiling'], goal: '≥ 2× express, ≥ 0.6× ceiling, p99 ≤ 10 ms', scales: true },
  { name: 'GET /v1/pets?limit=100&status=sold', path: () => '/v1/pets?limit=100&status=sold', peers: ['service', 'uncached', 'express', 'baseline'], goal: '≥ 2× express, p99 ≤ 10 ms', scales: true },
  { name: 'GET /v1/pets/{id}', path: (count) => `/v1/pets/${Math.ceil(count / 2)}`, peers: ['service', 'uncached', 'express', 'baseline'], goal: '≥ 2× express, p99 ≤ 10 ms', scales: true },
  // A category's pets, alone and with a status: the seed's category 6 holds 1% of the pets,
  // every one `sold`, so a page of 10 is full at either size (./seed.ts). Flat from the small
  // size to the large one: each combination of filters is read through an index of its own.
  { name: 'GET /v1/pets?limit=10&categoryId=6', path: () => '/v1/pets?limit=10&categoryId=6', peers: ['service', 'uncached'], goal: 'flat with size', scales: true },
  { name: 'GET /v1/pets?limit=10&categoryId=6&status=sold', path: () => '/v1/pets?limit=10&categoryId=6&status=sold', peers: ['service', 'uncached'], goal: 'flat with size', scales: true },
  { name: 'POST /v1/pets', method: 'POST', path: () => '/v1/pets', body: newPet, peers: ['service', 'express', 'baseline'], goal: '≥ 2× express, p99 ≤ 20 ms' },
  { name: 'GET /v1/pets/{id}, a random pet each time', path: (count) => `/v1/pets/${below(count)}`, varies: true, peers: ['service', 'uncached', 'express', 'baseline'], scales: true },
  { name: 'mixed: 60% GET /v1/pets/{id}, 20% GET /v1/pets?status=, 20% POST /v1/pets', path: () => '/', mix: (count) => trafficMix(count, newPet), peers: ['service', 'uncached', 'express', 'baseline'], goal: '≥ 2.5× express, p99 ≤ 20 ms' },
  { name: 'GET /v1/pets?limit=20 after a random cursor', path: (count) => `/v1/pets?limit=20&cursor=${randomCursor(count)}`, varies: true, peers: ['service', 'uncached'], scales: true },
  { name: 'GET /v1/pets?limit=20 revalidated (304)', path: () => '/v1/pets?limit=20', extra: currentTag, status: 304, peers: ['service', 'uncached'] },
  { name: 'POST /v1/pets with an Idempotency-Key', method: 'POST', path: () => '/v1/pets', body: newPet, uniqueKeys: true, peers: ['service'] },
  { name: 'GET /v1/store/orders?limit=20', path: () => '/v1/store/orders?limit=20', peers: ['service', 'uncached'] },
  // A pet is sold once, so a timed run of accepted orders would soon run out of pets: this
  // measures the order refused for a pet already on order (pet 1), the same transaction.
  { name: 'POST /v1/store/orders, the pet on order (409)', method: 'POST', path: () => '/v1/store/orders', body: JSON.stringify({ petId: 1, quantity: 1 }), status: 409, peers: ['service'] },
  { name: 'PATCH /v1/pets/{id}, a new name', method: 'PATCH', path: (count) => `/v1/pets/${unorderedPet(count)}`, varies: true, body: rename, contentType: MERGE_PATCH, peers: ['service'] },
  { name: 'GET /v1/store/orders/{id}', path: () => `/v1/store/orders/${randomOrder()}`, varies: true, peers: ['service', 'uncached'] },
  // A new ship date keeps the order open (completing it would sell its pet, once).
  { name: 'PATCH /v1/store/orders/{id}, a new ship date', method: 'PATCH', path: () => `/v1/store/orders/${randomOrder()}`, varies: true, body: reschedule, contentType: MERGE_PATCH, peers: ['service'] },
  // The feed: a full page of the events the writes above made, from the start.
  { name: 'GET /v1/events?limit=100', path: () => '/v1/events?limit=100', peers: ['service', 'uncached'] },
  {
    name: 'GET /v1/pets?limit=20 with a scoped database key',
    path: () => '/v1/pets?limit=20',
    extra: async () => ({ authorization: `Bearer ${scopedKey}` }),
    scoped: true,
    peers: ['service', 'uncached']
  }
]

// The pet operations again, each server on a PostgreSQL database of its own.
export const pgRows: Row[] = [
  { name: 'mixed: 60% GET /v1/pets/{id}, 20% GET /v1/pets?status=, 20% POST /v1/pets on PostgreSQL', path: () => '/', mix: (count) => trafficMix(count, newPet), peers: ['service', 'express-pg'], goal: '≥ 2× express-pg, p99 ≤ 25 ms' },
  { name: 'GET /v1/pets?limit=20 on PostgreSQL', path: () => '/v1/pets?limit=20', peers: ['service', 'express-pg'], goal: '≥ 1.5× express-pg' },
  { name: 'GET /v1/pets?limit=100&status=sold on PostgreSQL', path: () => '/v1/pets?limit=100&status=sold', peers: ['service', 'express-pg'], goal: '≥ 1.5× express-pg' },
  { name: 'GET /v1/pets/{id} on PostgreSQL', path: (count) => `/v1/pets/${Math.ceil(count / 2)}`, peers: ['service', 'express-pg'], goal: '≥ 1.5× express-pg' },
  { name: 'GET /v1/pets/{id}, a random pet each time on PostgreSQL', path: (count) => `/v1/pets/${below(count)}`, varies: true, peers: ['service', 'express-pg'], goal: '≥ 1.5× express-pg' },
  { name: 'POST /v1/pets on PostgreSQL', method: 'POST', path: () => '/v1/pets', body: newPet, peers: ['service', 'express-pg'], goal: '≥ 2× express-pg in every round' }
]

// Creates, their events delivered to one subscribed endpoint, beside the same creates without
// (on SQLite, then PostgreSQL): see ./webhook-cost.ts.
export const webhookRow: Row = { name: 'POST /v1/pets with one subscribed webhook endpoint', method: 'POST', path: () => '/v1/pets', body: newPet, peers: [], goal: '≥ 0.75× none; lag p99 ≤ 1000 ms' }

// Creates with every event published to NATS JetStream, beside creates without (on SQLite,
// then PostgreSQL): see ./event-stream-cost.ts.
export const eventStreamRow: Row = { name: 'POST /v1/pets with an event stream', method: 'POST', path: () => '/v1/pets', body: newPet, peers: [], goal: '≥ 0.9× none; lag p99 < 100 ms' }

// Tracing off and on (./tracing-cost.ts).
export const tracingRows: Row[] = [
  { name: 'GET /v1/pets?limit=20 with tracing', path: () => '/v1/pets?limit=20', peers: [], goal: 'on: ≥ 0.6× off; off: within noise of before' },
  { name: 'POST /v1/pets with tracing', method: 'POST', path: () => '/v1/pets', body: newPet, peers: [], goal: 'on: ≥ 0.6× off; off: within noise of before' }
]
