/**
 * listCategories, on whichever database this run tests: pages in id order with `Link`,
 * ETags and 304s, and refusals of bad parameters.
 */
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { categoryBody, errorBody, JSON_TYPE } from '../../helpers/answers.ts'
import { NOT_DECIMAL_DIGITS } from '../../helpers/inputs.ts'
import { walkPages } from '../../helpers/store.ts'

async function addCategories (app: FastifyInstance, count: number): Promise<void> {
  for (let i = 1; i <= count; i++) {
    const res = await app.inject({ method: 'POST', url: '/v1/categories', headers: JSON_HEADERS, payload: { name: `category ${i}` } })
    if (res.statusCode !== 201) throw new Error(res.body)
  }
}

t.test('listCategories answers an empty page on an empty store', async (t) => {
  const app = await build(t)
  const res = await app.inject({ url: '/v1/categories', headers: AUTH })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], JSON_TYPE)
  t.equal(res.headers['api-stability'], 'beta')
  t.equal(res.headers['cache-control'], 'private, no-cache')
  t.match(res.headers.etag, /^"[A-Za-z0-9_-]+"$/)
  t.equal(res.headers.link, undefined)
  t.equal(res.body, '[]')
})

t.test('listCategories pages in ascending id order, with a Link to the next page', async (t) => {
  const app = await build(t)
  await addCategories(app, 5)
  await app.inject({ method: 'PATCH', url: '/v1/categories/2', headers: JSON_HEADERS, payload: { description: 'second' } })
  const res = await app.inject({ url: '/v1/categories?limit=2', headers: AUTH })
  t.equal(res.statusCode, 200)
  t.equal(res.headers.link, '</v1/categories?limit=2&cursor=Mg>; rel="next"')
  t.equal(res.body, `[${categoryBody({ id: 1, name: 'category 1' })},${categoryBody({ id: 2, name: 'category 2', description: 'second' })}]`)
  const pages = await walkPages(app, '/v1/categories?limit=2')
  t.same(pages.map((page) => page.json().map((category: { id: number }) => category.id)), [[1, 2], [3, 4], [5]])
  t.equal(pages.at(-1)!.headers.link, undefined, 'no Link on the last page')

  await app.inject({ method: 'DELETE', url: '/v1/categories/3', headers: AUTH })
  const after = await walkPages(app, '/v1/categories?limit=2')
  t.same(after.map((page) => page.json().map((category: { id: number }) => category.id)), [[1, 2], [4, 5]], 'a deleted category is not listed')
})

t.test('an unchanged page is 304 to its ETag; a change to a category on it is not', async (t) => {
  const app = await build(t)
  await addCategories(app, 2)
  const first = await app.inject({ url: '/v1/categories', headers: AUTH })
  const again = await app.inject({ url: '/v1/categories', headers: { ...AUTH, 'if-none-match': first.headers.etag as string } })
  t.equal(again.statusCode, 304)
  t.equal(again.body, '')
  t.equal(again.headers.etag, first.headers.etag)
  await app.inject({ method: 'PATCH', url: '/v1/categories/1', headers: JSON_HEADERS, payload: { name: 'Dogs' } })
  const changed = await app.inject({ url: '/v1/categories', headers: { ...AUTH, 'if-none-match': first.headers.etag as string } })
  t.equal(changed.statusCode, 200)
  t.equal(changed.body, `[${categoryBody({ id: 1, name: 'Dogs' })},${categoryBody({ id: 2, name: 'category 2' })}]`)
})

t.test('listCategories refuses bad parameters with 400 naming them', async (t) => {
  const app = await build(t)
  const cases: Array<[string, string]> = [
    ['limit=0', 'querystring/limit must be >= 1'],
    ['limit=101', 'querystring/limit must be <= 100'],
    ['limit=ten', 'querystring/limit must be integer'],
    ...NOT_DECIMAL_DIGITS.map((text): [string, string] => [`limit=${text}`, 'querystring/limit must be integer']),
    ['cursor=nope', 'querystring/cursor is malformed: pass back the cursor of a Link header unchanged'],
    ['cursor=', 'querystring/cursor must NOT have fewer than 1 characters']
  ]
  for (const [query, message] of cases) {
    const res = await app.inject({ url: `/v1/categories?${query}`, headers: AUTH })
    t.equal(res.statusCode, 400, query)
    t.equal(res.headers['content-type'], JSON_TYPE, query)
    t.equal(res.headers['api-stability'], 'beta', query)
    t.equal(res.headers['cache-control'], 'no-store', query)
    t.same(res.json(), errorBody('invalid_request', message, 400), query)
  }
})

t.test('a cursor beyond 2^53 is read exactly', async (t) => {
  const app = await build(t)
  const cursor = Buffer.from('9007199254740993').toString('base64url')
  const res = await app.inject({ url: `/v1/categories?cursor=${cursor}`, headers: AUTH })
  t.equal(res.statusCode, 200)
  t.equal(res.body, '[]')
})
