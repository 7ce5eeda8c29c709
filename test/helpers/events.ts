/**
 * The event feed as a reader follows it: page after page by each page's `Link`, which every
 * page of the feed carries, until an empty page (where a reader would poll on).
 */
import type { FastifyInstance } from 'fastify'
import { parseJson } from '../../src/http/json.ts'
import { AUTH } from './app.ts'
import { nextLink } from './store.ts'
import { until } from './until.ts'

export interface FeedEvent {
  id: string
  type: string
  timestamp: string
  sequence: number | bigint
  data: Record<string, unknown>
  previous?: Record<string, unknown>
}

/** Every event from `url` on, following the Links to the first empty page; with the Link to poll on from. */
export async function readFeed (app: FastifyInstance, url = '/v1/events?limit=100'): Promise<{ events: FeedEvent[], next: string }> {
  const events: FeedEvent[] = []
  let next = url
  for (;;) {
    const page = await app.inject({ url: next, headers: AUTH })
    if (page.statusCode !== 200) throw new Error(`${next}: ${page.statusCode} ${page.body}`)
    const link = nextLink(page.headers.link as string | undefined)
    if (link === undefined) throw new Error(`${next}: a page of the feed without a Link`)
    const items = parseJson(page.body) as FeedEvent[]
    events.push(...items)
    next = link
    if (items.length === 0) return { events, next }
  }
}

/**
 * The feed once it holds `count` events: on PostgreSQL an event joins the feed once a
 * numbering pass has run after its commit, a moment after the answer.
 */
export async function feedOf (app: FastifyInstance, count: number): Promise<FeedEvent[]> {
  return feedWhere(app, (events) => events.length >= count, `${count} events in the feed`)
}

/** The feed once `holds` says it holds what a test waits for. */
export async function feedWhere (app: FastifyInstance, holds: (events: FeedEvent[]) => boolean, what: string): Promise<FeedEvent[]> {
  let events: FeedEvent[] = []
  await until(async () => holds(events = (await readFeed(app)).events), what)
  return events
}

/** The events' types and their resources' ids, in feed order: what a test compares at a glance. */
export const summary = (events: readonly FeedEvent[]) => events.map((event) => `${event.type} ${String(event.data.id)}`)

/** Every event id of the feed of the server at `base` (as a process), read with `key`, in order. */
export async function feedIdsAt (base: string, key: string): Promise<string[]> {
  const ids: string[] = []
  for (let path = '/v1/events?limit=100'; ;) {
    const res = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } })
    const events = await res.json() as Array<{ id: string }>
    if (events.length === 0) return ids
    ids.push(...events.map((event) => event.id))
    path = nextLink(res.headers.get('link'))!
  }
}
