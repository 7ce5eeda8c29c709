/**
 * listPets' `categoryId` filter, on whichever database this run tests: alone or with
 * `status`, paged with its `Link`, whether or not the category exists; each combination
 * read through an index of its own, so that a page costs its own rows at any table size.
 */
import t from 'tap'
import { CompiledQuery, sql } from 'kysely'
import type { LightMyRequestResponse } from 'fastify'
import { listPets } from '../../../src/features/pets/repository.ts'
import { AUTH, build, JSON_HEADERS, recordingDatabase, TEST_DATABASE } from '../../helpers/app.ts'
import { errorBody, JSON_TYPE, petBody } from '../../helpers/answers.ts'
import { NOT_DECIMAL_DIGITS } from '../../helpers/inputs.ts'
import { walkPages } from '../../helpers/store.ts'

const ids = (page: LightMyRequestResponse): number[] => page.json().map((pet: { id: number }) => pet.id)

t.test('categoryId keeps the pets of one category, alone or with status, a page at a time', async (t) => {
  const app = await build(t)
  const statuses = ['available', 'pending', undefined] as const
  // Pet i is in category 1 + i % 3, with status statuses[i % 3 ... shifted], so the filters cross.
  for (let i = 0; i < 30; i++) {
    const status = statuses[Math.floor(i / 3) % 3]
    const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: `pet ${i + 1}`, categoryId: 1 + (i % 3), ...(status !== undefined && { status }) } })
    if (res.statusCode !== 201) throw new Error(res.body)
  }
  const all = Array.from({ length: 30 }, (_, i) => ({ id: i + 1, categoryId: 1 + (i % 3), status: statuses[Math.floor(i / 3) % 3] }))

  const first = await app.inject({ url: '/v1/pets?categoryId=2&limit=3', headers: AUTH })
  t.equal(first.statusCode, 200)
  t.equal(first.headers['content-type'], JSON_TYPE)
  t.equal(first.headers.link, `</v1/pets?categoryId=2&limit=3&cursor=${Buffer.from('8').toString('base64url')}>; rel="next"`, 'the Link keeps the filter')
  t.equal(first.body, `[${[2, 5, 8].map((id) => petBody({ id, name: `pet ${id}`, categoryId: 2, status: all[id - 1]!.status })).join(',')}]`)

  for (const limit of [1, 4, 100]) {
    const pages = await walkPages(app, `/v1/pets?categoryId=2&limit=${limit}`)
    t.same(pages.flatMap(ids), all.filter((pet) => pet.categoryId === 2).map((pet) => pet.id), `categoryId=2, limit=${limit}`)
    for (const status of ['available', 'pending', 'sold']) {
      const both = await walkPages(app, `/v1/pets?status=${status}&categoryId=3&limit=${limit}`)
      t.same(both.flatMap(ids), all.filter((pet) => pet.categoryId === 3 && pet.status === status).map((pet) => pet.id), `categoryId=3&status=${status}, limit=${limit}`)
    }
  }
  const none = await app.inject({ url: '/v1/pets?categoryId=9223372036854775807', headers: AUTH })
  t.equal(none.statusCode, 200)
  t.equal(none.body, '[]', 'a category no pet names: an empty page')
  t.equal((await app.inject({ url: '/v1/categories/2', headers: AUTH })).statusCode, 404, 'category 2 does not exist, and its pets are listed all the same')
})

t.test('a categoryId beyond 2^53 is matched exactly', async (t) => {
  const app = await build(t)
  for (const categoryId of ['9007199254740993', '9007199254740992']) {
    await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: `{"name":"Big","categoryId":${categoryId}}` })
  }
  const res = await app.inject({ url: '/v1/pets?categoryId=9007199254740993', headers: AUTH })
  t.equal(res.body, `[${petBody({ id: 1, name: 'Big', categoryId: 9007199254740993n })}]`)
})

t.test('listPets refuses a bad categoryId with 400 naming it', async (t) => {
  const app = await build(t)
  const cases: Array<[string, string]> = [
    ['0', 'querystring/categoryId must be >= 1'],
    ['-1', 'querystring/categoryId must be >= 1'],
    ['dogs', 'querystring/categoryId must be integer'],
    ['9223372036854775808', 'querystring/categoryId must be <= 9223372036854775807'],
    ...NOT_DECIMAL_DIGITS.map((text): [string, string] => [text, 'querystring/categoryId must be integer'])
  ]
  for (const [value, message] of cases) {
    const res = await app.inject({ url: `/v1/pets?categoryId=${value}`, headers: AUTH })
    t.equal(res.statusCode, 400, value)
    t.equal(res.headers['content-type'], JSON_TYPE, value)
    t.same(res.json(), errorBody('invalid_request', message, 400), value)
  }
})

t.test('each combination of filters is read through an index, in id order, with no sort', async (t) => {
  const { db, statements } = await recordingDatabase(t)
  // Many pets in category 2, a few in category 1: a page of category 1 read any other way
  // than by its index would read most of the table.
  await sql`insert into pets (name, category_id, status)
    select 'pet', case when g % 1000 = 0 then 1 else 2 end, case when g % 2 = 0 then 'available' else 'sold' end
    from (${TEST_DATABASE === 'postgres' ? sql`select generate_series(1, 20000) as g` : sql`with recursive s(g) as (select 1 union all select g + 1 from s where g < 20000) select g from s`}) as n`.execute(db)
  if (TEST_DATABASE === 'postgres') await sql`analyze pets`.execute(db)
  const cases = [
    { query: { categoryId: 1 }, index: 'pets_category_id', params: [1, 0, 21] },
    { query: { categoryId: 1, status: 'available' as const }, index: 'pets_category_status_id', params: [1, 'available', 0, 21] }
  ]
  for (const { query, index, params } of cases) {
    statements.length = 0
    const page = await listPets(db, { limit: 20, afterId: 0, ...query })
    t.equal(page.items.length, 20, `${JSON.stringify(query)}: the 20 pets of category 1 it holds`)
    const statement = statements.find((text) => text.includes('from "pets"'))!
    const explain = TEST_DATABASE === 'postgres' ? `explain ${statement}` : `explain query plan ${statement}`
    const { rows } = await db.executeQuery(CompiledQuery.raw(explain, params))
    const plan = JSON.stringify(rows, (_, value: unknown) => typeof value === 'bigint' ? String(value) : value)
    t.match(plan, index, `${JSON.stringify(query)}: through ${index}: ${plan}`)
    t.notMatch(plan, /Sort|TEMP B-TREE|Seq Scan|SCAN pets(?! USING)/, `${JSON.stringify(query)}: no sort, no scan of the table`)
  }
})
