import t from 'tap'
import type { LightMyRequestResponse } from 'fastify'
import { AUTH, build } from '../../helpers/app.ts'
import { errorBody } from '../../helpers/answers.ts'
import { NOT_DECIMAL_DIGITS } from '../../helpers/inputs.ts'
import { addPets, walkPages } from '../../helpers/store.ts'

/** Each status in turn, and every fourth pet with none. */
const STATUSES = ['available', 'pending', 'sold', undefined] as const

/** The ids of a page's pets. */
const ids = (page: LightMyRequestResponse): number[] => page.json().map((pet: { id: number }) => pet.id)

t.test('listPets answers an empty array on an empty store', async (t) => {
  const app = await build(t)
  const res = await app.inject({ url: '/v1/pets', headers: AUTH })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  t.equal(res.body, '[]')
  t.equal(res.headers.link, undefined)
})

t.test('listPets returns 20 pets by default, oldest first, with a next link', async (t) => {
  const app = await build(t)
  await addPets(app, 25, { statuses: STATUSES })
  const res = await app.inject({ url: '/v1/pets', headers: AUTH })
  const pets = res.json()
  t.equal(pets.length, 20)
  t.same(pets.map((pet: { id: number }) => pet.id), Array.from({ length: 20 }, (_, i) => i + 1))
  t.same(pets[0], { id: 1, name: 'pet 1', categoryId: 1, status: 'available' })
  t.same(pets[3], { id: 4, name: 'pet 4', categoryId: 1 }, 'a pet without status has no status key')
  t.equal(res.headers.link, '</v1/pets?limit=20&cursor=MjA>; rel="next"')
})

t.test('paging visits every pet exactly once, in order', async (t) => {
  const app = await build(t)
  await addPets(app, 103, { statuses: STATUSES })
  for (const limit of [1, 7, 100]) {
    const pages = await walkPages(app, `/v1/pets?limit=${limit}`)
    t.same(pages.flatMap(ids), Array.from({ length: 103 }, (_, i) => i + 1), `limit=${limit}`)
    t.equal(pages.length, Math.ceil(103 / limit), `limit=${limit}: no empty last page`)
    t.equal(pages.at(-1)!.headers.link, undefined, `limit=${limit}: no link on the last page`)
  }
})

t.test('paging with a status filter keeps the filter and sees only matching pets', async (t) => {
  const app = await build(t)
  await addPets(app, 60, { statuses: STATUSES })
  const pages = await walkPages(app, '/v1/pets?status=pending&limit=4')
  const expected = Array.from({ length: 60 }, (_, i) => i + 1).filter((id) => (id - 1) % 4 === 1)
  t.same(pages.flatMap(ids), expected)
  t.match(pages[0]!.headers.link, /^<\/v1\/pets\?limit=4&status=pending&cursor=[A-Za-z0-9_-]+>; rel="next"$/)
})

t.test('the status filter never matches pets without a status', async (t) => {
  const app = await build(t)
  await addPets(app, 8, { statuses: STATUSES })
  for (const status of ['available', 'pending', 'sold']) {
    const res = await app.inject({ url: `/v1/pets?status=${status}`, headers: AUTH })
    t.same(res.json().map((pet: { status: string }) => pet.status), [status, status], status)
  }
})

t.test('listPets refuses bad parameters with 400 naming them', async (t) => {
  const app = await build(t)
  const cases: Array<[string, string]> = [
    ['limit=0', 'querystring/limit must be >= 1'],
    ['limit=101', 'querystring/limit must be <= 100'],
    ['limit=-1', 'querystring/limit must be >= 1'],
    ['limit=abc', 'querystring/limit must be integer'],
    ['limit=1.5', 'querystring/limit must be integer'],
    ['limit=', 'querystring/limit must be integer'],
    ['limit=1&limit=2', 'querystring/limit must be integer'],
    // Decimal digits only: what Number() would also take is refused, not coerced.
    ...NOT_DECIMAL_DIGITS.map((text): [string, string] => [`limit=${text}`, 'querystring/limit must be integer']),
    ['limit=-5', 'querystring/limit must be >= 1'],
    [`limit=1${'0'.repeat(400)}`, 'querystring/limit must be <= 100'],
    ['stauts=sold&limit=1e1', "querystring must NOT have additional property 'stauts'"],
    ['status=lost', 'querystring/status must be one of: available, pending, sold'],
    ['status=SOLD', 'querystring/status must be one of: available, pending, sold'],
    ['stauts=sold', "querystring must NOT have additional property 'stauts'"],
    ['cursor=', 'querystring/cursor must NOT have fewer than 1 characters'],
    ['cursor=%%%', 'querystring must be percent-encoded UTF-8'],
    // Not UTF-8: a lone byte, a cut sequence, a lone surrogate's bytes.
    ['status=%FF', 'querystring must be percent-encoded UTF-8'],
    ['cursor=%E0%A4%A', 'querystring must be percent-encoded UTF-8'],
    ['cursor=a%ED%A0%80b', 'querystring must be percent-encoded UTF-8'],
    ['%FF=1', 'querystring must be percent-encoded UTF-8'],
    ['cursor=MA', 'querystring/cursor is malformed: pass back the cursor of a Link header unchanged'],
    ['cursor=OTIyMzM3MjAzNjg1NDc3NTgwOA', 'querystring/cursor is malformed: pass back the cursor of a Link header unchanged'],
    [`cursor=${'A'.repeat(65)}`, 'querystring/cursor must NOT have more than 64 characters']
  ]
  for (const [query, message] of cases) {
    const res = await app.inject({ url: `/v1/pets?${query}`, headers: AUTH })
    t.equal(res.statusCode, 400, query)
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8', query)
    t.same(res.json(), errorBody('invalid_request', message, 400), query)
  }
})

t.test('listPets takes a limit of decimal digits, leading zeros included', async (t) => {
  const app = await build(t)
  await addPets(app, 6, { statuses: STATUSES })
  for (const [limit, count] of [['5', 5], ['005', 5], ['100', 6]] as const) {
    const res = await app.inject({ url: `/v1/pets?limit=${limit}`, headers: AUTH })
    t.equal(res.statusCode, 200, limit)
    t.equal(res.json().length, count, limit)
  }
})

t.test('a cursor beyond 2^53 is read exactly', async (t) => {
  const app = await build(t)
  await addPets(app, 2, { statuses: STATUSES })
  const cursor = Buffer.from('9007199254740993').toString('base64url')
  const res = await app.inject({ url: `/v1/pets?cursor=${cursor}`, headers: AUTH })
  t.equal(res.statusCode, 200)
  t.equal(res.body, '[]')
})
