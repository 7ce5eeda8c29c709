/**
 * What the event-stream tests share: changes that make every event type, the feed's own
 * bytes of each event, and an app publishing to a broker.
 */
import type { FastifyInstance } from 'fastify'
import type { Test } from 'tap'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import type { AppOptions } from '../../../src/app.ts'
import type { Received } from '../../helpers/brokers.ts'
import { feedOf, type FeedEvent } from '../../helpers/events.ts'

const MERGE_PATCH = { ...AUTH, 'content-type': 'application/merge-patch+json' }

async function send (app: FastifyInstance, method: 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object): Promise<void> {
  const res = await app.inject({ method, url, headers: method === 'PATCH' ? MERGE_PATCH : JSON_HEADERS, payload })
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`)
}

/** Changes that make every event type: 11 events (an order placed, completed or cancelled moves its pet). */
export async function everyKindOfChange (app: FastifyInstance): Promise<number> {
  await send(app, 'POST', '/v1/pets', { name: 'Rex', categoryId: 1, status: 'available' })
  await send(app, 'POST', '/v1/pets', { name: 'Tom', categoryId: 1, status: 'available' })
  await send(app, 'PATCH', '/v1/pets/1', { name: 'Rex II' })
  const placed = await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: 1 } })
  if (placed.statusCode !== 201) throw new Error(placed.body)
  await send(app, 'PATCH', `/v1/store/orders/${String(placed.json().id)}`, { complete: true })
  const second = await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: 2 } })
  await send(app, 'DELETE', `/v1/store/orders/${String(second.json().id)}`)
  return 11
}

/** The feed's `count` events, each with the exact text `getEvent` answers. */
export async function feedTexts (app: FastifyInstance, count: number): Promise<Array<FeedEvent & { text: string }>> {
  const events = await feedOf(app, count)
  return Promise.all(events.map(async (event) => {
    const res = await app.inject({ url: `/v1/events/${event.id}`, headers: AUTH })
    return { ...event, text: res.body }
  }))
}

/** What a message should be for `event`: its id, its type, and its feed text as the body. */
export function expected (event: FeedEvent & { text: string }) {
  return { id: event.id, type: event.type, body: event.text }
}

export function receivedAs (message: Received) {
  return { id: message.id, type: message.headers['ce-type'], body: message.body }
}

/** An app publishing to `url`, retrying soon after a failure. */
export async function publishing (t: Test, url: string, eventStream: NonNullable<AppOptions['eventStream']>, options: Partial<AppOptions> = {}): Promise<FastifyInstance> {
  return build(t, { ...options, eventStream: { url, retryMinMs: 20, retryMaxMs: 200, standbyPollMs: 50, pollIntervalMs: 50, ...eventStream } })
}
