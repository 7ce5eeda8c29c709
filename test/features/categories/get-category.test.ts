/**
 * getCategory, on whichever database this run tests: the whole answer with its ETag, 304s,
 * and every refusal.
 */
import t from 'tap'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { categoryBody, errorBody, JSON_TYPE } from '../../helpers/answers.ts'
import { NOT_DECIMAL_DIGITS } from '../../helpers/inputs.ts'

t.test('getCategory answers 200 with the category and an ETag; sent back, 304', async (t) => {
  const app = await build(t)
  await app.inject({ method: 'POST', url: '/v1/categories', headers: JSON_HEADERS, payload: { name: 'Dogs', description: 'Woof' } })
  const res = await app.inject({ url: '/v1/categories/1', headers: { ...AUTH, 'x-request-id': 'get-category-1' } })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], JSON_TYPE)
  t.equal(res.headers['api-stability'], 'beta')
  t.equal(res.headers['cache-control'], 'private, no-cache')
  t.equal(res.headers['x-request-id'], 'get-category-1')
  t.match(res.headers.etag, /^"[A-Za-z0-9_-]+"$/)
  t.equal(res.body, categoryBody({ id: 1, name: 'Dogs', description: 'Woof' }))

  const again = await app.inject({ url: '/v1/categories/1', headers: { ...AUTH, 'if-none-match': res.headers.etag as string } })
  t.equal(again.statusCode, 304)
  t.equal(again.body, '')
  t.equal(again.headers.etag, res.headers.etag)
  t.equal(again.headers['api-stability'], 'beta')

  await app.inject({ method: 'PATCH', url: '/v1/categories/1', headers: JSON_HEADERS, payload: { description: null } })
  const changed = await app.inject({ url: '/v1/categories/1', headers: { ...AUTH, 'if-none-match': res.headers.etag as string } })
  t.equal(changed.statusCode, 200, 'a changed category no longer matches its old ETag')
  t.equal(changed.body, categoryBody({ id: 1, name: 'Dogs' }))
  t.not(changed.headers.etag, res.headers.etag)
})

t.test('getCategory refuses a malformed id with 400, and answers 404 for an unknown or deleted category', async (t) => {
  const app = await build(t)
  await app.inject({ method: 'POST', url: '/v1/categories', headers: JSON_HEADERS, payload: { name: 'Dogs' } })
  await app.inject({ method: 'DELETE', url: '/v1/categories/1', headers: AUTH })
  const cases: Array<[string, number, object]> = [
    ['0', 400, errorBody('invalid_request', 'params/categoryId must be >= 1', 400)],
    ['abc', 400, errorBody('invalid_request', 'params/categoryId must be integer', 400)],
    ...NOT_DECIMAL_DIGITS.map((text): [string, number, object] => [text, 400, errorBody('invalid_request', 'params/categoryId must be integer', 400)]),
    ['9223372036854775808', 400, errorBody('invalid_request', 'params/categoryId must be <= 9223372036854775807', 400)],
    ['1', 404, errorBody('not_found', 'Category 1 not found', 404)],
    ['9223372036854775807', 404, errorBody('not_found', 'Category 9223372036854775807 not found', 404)]
  ]
  for (const [id, status, body] of cases) {
    const res = await app.inject({ url: `/v1/categories/${id}`, headers: AUTH })
    t.equal(res.statusCode, status, id)
    t.equal(res.headers['content-type'], JSON_TYPE, id)
    t.equal(res.headers['api-stability'], 'beta', id)
    t.equal(res.headers['cache-control'], 'no-store', id)
    t.equal(res.headers.etag, undefined, id)
    t.same(res.json(), body, id)
  }
})

t.test('without a key, 401 with the challenge', async (t) => {
  const app = await build(t)
  const res = await app.inject({ url: '/v1/categories/1' })
  t.equal(res.statusCode, 401)
  t.equal(res.headers['content-type'], JSON_TYPE)
  t.equal(res.headers['www-authenticate'], 'Bearer realm="petstore"')
  t.same(res.json(), errorBody('unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>', 401))
})
