import t from 'tap'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { errorBody } from '../../helpers/answers.ts'
import { NOT_DECIMAL_DIGITS } from '../../helpers/inputs.ts'

const SUNSET = Date.UTC(2030, 11, 5)
const DEPRECATION_HEADERS = {
  deprecation: '@1795305600',
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</v1/pets>; rel="successor-version"'
}

t.test('getPet answers the pet with the deprecation headers', async (t) => {
  const app = await build(t)
  await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 2, status: 'pending' } })
  const res = await app.inject({ url: '/v1/pets/1', headers: AUTH })
  t.equal(res.statusCode, 200)
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  t.match(res.headers, DEPRECATION_HEADERS)
  t.equal(res.body, '{"id":1,"name":"Rex","categoryId":2,"status":"pending"}')
})

t.test('getPet answers 404 for a missing pet, with the deprecation headers', async (t) => {
  const app = await build(t)
  for (const id of ['1', '9007199254740993', '9223372036854775807']) {
    const res = await app.inject({ url: `/v1/pets/${id}`, headers: AUTH })
    t.equal(res.statusCode, 404, id)
    t.match(res.headers, DEPRECATION_HEADERS, id)
    t.same(res.json(), errorBody('not_found', `Pet ${id} not found`, 404), id)
  }
})

t.test('getPet refuses a malformed id with 400', async (t) => {
  const app = await build(t)
  const cases: Array<[string, string]> = [
    ['abc', 'params/petId must be integer'],
    ['1.5', 'params/petId must be integer'],
    ['0', 'params/petId must be >= 1'],
    ['-3', 'params/petId must be >= 1'],
    ['9223372036854775808', 'params/petId must be <= 9223372036854775807'],
    ['1e3', 'params/petId must be integer'],
    // Decimal digits only: what Number() would also take is refused, not coerced.
    ...NOT_DECIMAL_DIGITS.map((text): [string, string] => [text, 'params/petId must be integer'])
  ]
  for (const [id, message] of cases) {
    const res = await app.inject({ url: `/v1/pets/${id}`, headers: AUTH })
    t.equal(res.statusCode, 400, id)
    t.match(res.headers, DEPRECATION_HEADERS, id)
    t.same(res.json(), errorBody('invalid_request', message, 400), id)
  }
})

t.test('getPet without a key answers 401 with the deprecation headers', async (t) => {
  const app = await build(t)
  const res = await app.inject({ url: '/v1/pets/1' })
  t.equal(res.statusCode, 401)
  t.match(res.headers, { ...DEPRECATION_HEADERS, 'www-authenticate': 'Bearer realm="petstore"' })
  t.same(res.json(), errorBody('unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>', 401))
})

t.test('getPet answers 410 gone from the sunset instant on', async (t) => {
  let now = new Date(SUNSET - 1)
  const app = await build(t, { now: () => now })
  await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 2 } })
  const before = await app.inject({ url: '/v1/pets/1', headers: AUTH })
  t.equal(before.statusCode, 200, 'one millisecond before the sunset it still works')
  const gone = errorBody('gone', 'GET /v1/pets/{petId} was removed on 2030-12-05; use GET /v1/pets', 410)
  for (const at of [SUNSET, SUNSET + 86_400_000 * 365]) {
    now = new Date(at)
    for (const url of ['/v1/pets/1', '/v1/pets/2', '/v1/pets/abc']) {
      const res = await app.inject({ url, headers: AUTH })
      t.equal(res.statusCode, 410, `${url} at ${now.toISOString()}`)
      t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
      t.match(res.headers, DEPRECATION_HEADERS)
      t.same(res.json(), gone)
    }
  }
  const unauthenticated = await app.inject({ url: '/v1/pets/1' })
  t.equal(unauthenticated.statusCode, 401, 'the key is still checked first')
  const list = await app.inject({ url: '/v1/pets', headers: AUTH })
  t.equal(list.statusCode, 200, 'the successor keeps working')
})
