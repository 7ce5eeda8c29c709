/**
 * ETag and If-None-Match on every successful read, on whichever database this run tests:
 * a client that already holds an answer revalidates it for a 304 with no body, and the tag
 * changes whenever the body would.
 */
import t from 'tap'
import { match, noneMatch } from '../../src/http/conditional.ts'
import { AUTH, build, JSON_HEADERS } from '../helpers/app.ts'
import { errorBody } from '../helpers/answers.ts'

const TAG = /^"[A-Za-z0-9_-]+"$/

t.test('every successful read carries an ETag; sending it back gets 304 with no body', async (t) => {
  const app = await build(t)
  await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1, status: 'available' } })
  await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: 1 } })
  for (const url of ['/v1/pets', '/v1/pets?status=sold', '/v1/pets/1', '/v1/store/orders', '/v1/store/orders/1']) {
    const first = await app.inject({ url, headers: AUTH })
    t.equal(first.statusCode, 200, url)
    t.match(first.headers.etag, TAG, url)
    const tag = first.headers.etag as string
    for (const ifNoneMatch of [tag, `W/${tag}`, `"other", ${tag}`, '*']) {
      const again = await app.inject({ url, headers: { ...AUTH, 'if-none-match': ifNoneMatch } })
      t.equal(again.statusCode, 304, `${url} with If-None-Match: ${ifNoneMatch}`)
      t.equal(again.body, '')
      t.equal(again.headers.etag, tag)
      t.equal(again.headers['cache-control'], 'private, no-cache')
      t.equal(again.headers['content-type'], undefined)
      t.equal(again.headers['content-length'], undefined, 'a 304 has no Content-Length (RFC 9110 section 8.6)')
    }
    const stale = await app.inject({ url, headers: { ...AUTH, 'if-none-match': '"something-else"' } })
    t.equal(stale.statusCode, 200, `${url}: another tag gets the whole answer`)
    t.equal(stale.body, first.body)
  }
})

t.test('the tag changes whenever the body would', async (t) => {
  const app = await build(t)
  await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1, status: 'available' } })
  const before = (await app.inject({ url: '/v1/pets', headers: AUTH })).headers.etag
  await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Tom', categoryId: 1 } })
  const after = await app.inject({ url: '/v1/pets', headers: { ...AUTH, 'if-none-match': String(before) } })
  t.equal(after.statusCode, 200, 'a new pet on the last page')
  t.not(after.headers.etag, before)

  await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: 1 } })
  const orders = (await app.inject({ url: '/v1/store/orders', headers: AUTH })).headers.etag
  await app.inject({ method: 'DELETE', url: '/v1/store/orders/1', headers: AUTH })
  const cancelled = await app.inject({ url: '/v1/store/orders', headers: { ...AUTH, 'if-none-match': String(orders) } })
  t.equal(cancelled.statusCode, 200, 'an order cancelled')
  t.equal(cancelled.body, '[]')
})

t.test('no tag answers a request without a valid key, an error or a write', async (t) => {
  const app = await build(t)
  await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1 } })
  const tag = String((await app.inject({ url: '/v1/pets', headers: AUTH })).headers.etag)
  const anonymous = await app.inject({ url: '/v1/pets', headers: { 'if-none-match': tag } })
  t.equal(anonymous.statusCode, 401)
  t.equal(anonymous.headers.etag, undefined)
  t.same(anonymous.json(), errorBody('unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>', 401))
  const missing = await app.inject({ url: '/v1/pets/99', headers: { ...AUTH, 'if-none-match': '*' } })
  t.equal(missing.statusCode, 404, 'If-None-Match: * does not turn a 404 into a 304')
  t.equal(missing.headers.etag, undefined)
  const created = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Tom', categoryId: 1 } })
  t.equal(created.headers.etag, undefined)
})

t.test('If-None-Match is compared weakly, against each tag of a list', async (t) => {
  t.ok(noneMatch('"a"', '"a"'))
  t.ok(noneMatch('W/"a"', '"a"'))
  t.ok(noneMatch('"x", W/"a" ,"y"', '"a"'))
  t.ok(noneMatch('*', '"a"'))
  t.notOk(noneMatch(undefined, '"a"'))
  t.notOk(noneMatch('"ab"', '"a"'))
  t.notOk(noneMatch('a', '"a"'), 'an unquoted value is not the tag')
  t.notOk(noneMatch('', '"a"'))
})

t.test('If-Match is compared strongly, against each tag of a list', async (t) => {
  t.ok(match('"a"', '"a"'))
  t.ok(match('"x", "a" ,"y"', '"a"'))
  t.ok(match('*', '"a"'))
  t.notOk(match('W/"a"', '"a"'), 'a weak tag matches nothing')
  t.notOk(match('"ab"', '"a"'))
  t.notOk(match('a', '"a"'), 'an unquoted value is not the tag')
  t.notOk(match('', '"a"'))
})
