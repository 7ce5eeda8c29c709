/**
 * What tests put in the store and read back from it: pets added through the API, rows
 * counted in the database itself, and a listing's pages, walked by their `Link` headers.
 */
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import type { Kysely } from 'kysely'
import type { Database } from '../../src/database/schema.ts'
import { AUTH, JSON_HEADERS } from './app.ts'

/**
 * Rows in a table, counted in the database itself: what a request stored, or that a refused
 * one stored nothing. Takes an app, or `{ db }` for a database without one.
 */
export async function rowCount ({ db }: { db: Kysely<Database> }, table: keyof Database): Promise<number> {
  const row = await db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * Adds `count` pets through the API, named `pet 1`, `pet 2`…, in category 1, and resolves
 * with their ids; any answer but 201 fails the test. With `statuses`, pet i has
 * `statuses[i % statuses.length]` (`undefined`: no status).
 */
export async function addPets (app: FastifyInstance, count: number, { statuses = [undefined] }: { statuses?: ReadonlyArray<string | undefined> } = {}): Promise<number[]> {
  const ids: number[] = []
  for (let i = 0; i < count; i++) {
    const status = statuses[i % statuses.length]
    const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: `pet ${i + 1}`, categoryId: 1, ...(status !== undefined && { status }) } })
    if (res.statusCode !== 201) throw new Error(`pet ${i + 1}: ${res.statusCode} ${res.body}`)
    ids.push(res.json().id)
  }
  return ids
}

/**
 * The target of a listing's `Link: <...>; rel="next"`, or undefined without a Link; a Link
 * of any other form fails the test.
 */
export function nextLink (link: string | null | undefined): string | undefined {
  if (link === undefined || link === null) return undefined
  const target = /^<([^>]+)>; rel="next"$/.exec(link)?.[1]
  if (target === undefined) throw new Error(`not a Link to the next page: ${link}`)
  return target
}

type Send = (request: InjectOptions) => Promise<LightMyRequestResponse>

/**
 * Every page of a listing, from `url` on, following each `Link rel="next"` to the last page;
 * a page that is not a 200 fails the test. `send` replaces `app.inject` (the fuzz tests
 * check every answer against the document).
 */
export async function walkPages (app: FastifyInstance, url: string, send: Send = (request) => app.inject(request)): Promise<LightMyRequestResponse[]> {
  const pages: LightMyRequestResponse[] = []
  let next: string | undefined = url
  while (next !== undefined) {
    const page: LightMyRequestResponse = await send({ url: next, headers: AUTH })
    if (page.statusCode !== 200) throw new Error(`${next}: ${page.statusCode} ${page.body}`)
    pages.push(page)
    next = nextLink(page.headers.link as string | undefined)
  }
  return pages
}
