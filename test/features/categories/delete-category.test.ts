/**
 * deleteCategory, on whichever database this run tests: 204, then gone; its pets untouched,
 * its id never given again, its name free.
 */
import t from 'tap'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { categoryBody, errorBody, JSON_TYPE, petBody } from '../../helpers/answers.ts'
import { NOT_DECIMAL_DIGITS } from '../../helpers/inputs.ts'

t.test('deleteCategory answers 204 with no body; the category is gone, its pets stay as they are', async (t) => {
  const app = await build(t)
  await app.inject({ method: 'POST', url: '/v1/categories', headers: JSON_HEADERS, payload: { name: 'Dogs' } })
  await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1, status: 'available' } })
  const res = await app.inject({ method: 'DELETE', url: '/v1/categories/1', headers: { ...AUTH, 'x-request-id': 'delete-dogs' } })
  t.equal(res.statusCode, 204)
  t.equal(res.body, '')
  t.equal(res.headers['content-type'], undefined)
  t.equal(res.headers['api-stability'], 'beta')
  t.equal(res.headers['x-request-id'], 'delete-dogs')

  const gone = await app.inject({ url: '/v1/categories/1', headers: AUTH })
  t.equal(gone.statusCode, 404)
  t.same(gone.json(), errorBody('not_found', 'Category 1 not found', 404))
  const again = await app.inject({ method: 'DELETE', url: '/v1/categories/1', headers: AUTH })
  t.equal(again.statusCode, 404, 'deleting it again is 404')
  t.equal(again.headers['content-type'], JSON_TYPE)
  t.same(again.json(), errorBody('not_found', 'Category 1 not found', 404))

  const pet = petBody({ id: 1, name: 'Rex', categoryId: 1, status: 'available' })
  t.equal((await app.inject({ url: '/v1/pets/1', headers: AUTH })).body, pet, 'the pet keeps its categoryId')
  t.equal((await app.inject({ url: '/v1/pets?categoryId=1', headers: AUTH })).body, `[${pet}]`, 'and is still found by it')

  const reused = await app.inject({ method: 'POST', url: '/v1/categories', headers: JSON_HEADERS, payload: { name: 'dogs' } })
  t.equal(reused.statusCode, 201, 'the name is free again')
  t.equal(reused.body, categoryBody({ id: 2, name: 'dogs' }), 'the id is not')
})

t.test('deleteCategory answers 404 for an unknown category and 400 for a malformed id', async (t) => {
  const app = await build(t)
  const cases: Array<[string, number, object]> = [
    ['1', 404, errorBody('not_found', 'Category 1 not found', 404)],
    ['9223372036854775807', 404, errorBody('not_found', 'Category 9223372036854775807 not found', 404)],
    ['0', 400, errorBody('invalid_request', 'params/categoryId must be >= 1', 400)],
    ['9223372036854775808', 400, errorBody('invalid_request', 'params/categoryId must be <= 9223372036854775807', 400)],
    ...NOT_DECIMAL_DIGITS.map((text): [string, number, object] => [text, 400, errorBody('invalid_request', 'params/categoryId must be integer', 400)])
  ]
  for (const [id, status, body] of cases) {
    const res = await app.inject({ method: 'DELETE', url: `/v1/categories/${id}`, headers: AUTH })
    t.equal(res.statusCode, status, id)
    t.equal(res.headers['content-type'], JSON_TYPE, id)
    t.equal(res.headers['api-stability'], 'beta', id)
    t.same(res.json(), body, id)
  }
})
