/**
 * updateCategory, on whichever database this run tests: merge patches under both media
 * types, If-Match, unique names, and every refusal, each answer whole.
 */
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { categoryBody, errorBody, JSON_TYPE } from '../../helpers/answers.ts'
import { NOT_DECIMAL_DIGITS } from '../../helpers/inputs.ts'

const MERGE_PATCH = { ...AUTH, 'content-type': 'application/merge-patch+json' } as const

const patch = (app: FastifyInstance, id: number | string, payload: string, headers: Record<string, string> = MERGE_PATCH) =>
  app.inject({ method: 'PATCH', url: `/v1/categories/${id}`, headers, payload })

async function addCategory (app: FastifyInstance, category: object): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/v1/categories', headers: JSON_HEADERS, payload: category })
  if (res.statusCode !== 201) throw new Error(res.body)
}

/** getCategory's answer: its body and its ETag. */
async function read (app: FastifyInstance, id: number) {
  const res = await app.inject({ url: `/v1/categories/${id}`, headers: AUTH })
  return { status: res.statusCode, body: res.body, etag: res.headers.etag }
}

t.test('updateCategory applies a merge patch, under either media type, and answers the ETag getCategory then serves', async (t) => {
  const app = await build(t)
  await addCategory(app, { name: 'Dogs' })
  const steps: Array<[string, Record<string, string>, string]> = [
    ['{}', MERGE_PATCH, categoryBody({ id: 1, name: 'Dogs' })],
    ['{"description":"Woof"}', MERGE_PATCH, categoryBody({ id: 1, name: 'Dogs', description: 'Woof' })],
    ['{"name":"Hounds"}', JSON_HEADERS, categoryBody({ id: 1, name: 'Hounds', description: 'Woof' })],
    ['{"name":"HOUNDS"}', MERGE_PATCH, categoryBody({ id: 1, name: 'HOUNDS', description: 'Woof' })],
    ['{"description":null}', MERGE_PATCH, categoryBody({ id: 1, name: 'HOUNDS' })],
    ['{"description":null}', JSON_HEADERS, categoryBody({ id: 1, name: 'HOUNDS' })]
  ]
  for (const [payload, headers, body] of steps) {
    const res = await patch(app, 1, payload, headers)
    t.equal(res.statusCode, 200, payload)
    t.equal(res.headers['content-type'], JSON_TYPE, payload)
    t.equal(res.headers['api-stability'], 'beta', payload)
    t.equal(res.headers['cache-control'], 'no-store', payload)
    t.equal(res.body, body, payload)
    const got = await read(app, 1)
    t.equal(got.body, body, `${payload}: getCategory agrees`)
    t.equal(res.headers.etag, got.etag, `${payload}: the same ETag`)
  }
})

t.test('a name another category has is 409 conflict, and nothing changes; its own name in another case is fine', async (t) => {
  const app = await build(t)
  await addCategory(app, { name: 'Dogs' })
  await addCategory(app, { name: 'Cats', description: 'Meow' })
  for (const name of ['Dogs', 'dogs', 'DOGS']) {
    const res = await patch(app, 2, JSON.stringify({ name, description: null }))
    t.equal(res.statusCode, 409, name)
    t.equal(res.headers['content-type'], JSON_TYPE, name)
    t.equal(res.headers['api-stability'], 'beta', name)
    t.same(res.json(), errorBody('conflict', `Category 1 is named ${JSON.stringify(name)} already; category names are unique, whatever their case`, 409), name)
  }
  t.equal((await read(app, 2)).body, categoryBody({ id: 2, name: 'Cats', description: 'Meow' }), 'unchanged')
  const recased = await patch(app, 2, '{"name":"CATS"}')
  t.equal(recased.statusCode, 200)
  t.equal(recased.body, categoryBody({ id: 2, name: 'CATS', description: 'Meow' }))
})

const NAME_RULE = 'must contain a visible character and no control characters, unpaired surrogates, bidirectional controls or invisible format characters'

t.test('updateCategory refuses bad patches with 400 naming the field, and changes nothing', async (t) => {
  const app = await build(t)
  await addCategory(app, { name: 'Dogs', description: 'Woof' })
  const cases: Array<[string, string]> = [
    ['{"name":null}', 'body/name must be string'],
    ['{"name":""}', 'body/name must NOT have fewer than 1 characters'],
    [JSON.stringify({ name: 'x'.repeat(101) }), 'body/name must NOT have more than 100 characters'],
    ['{"name":"\\u200b"}', `body/name ${NAME_RULE}`],
    [JSON.stringify({ description: 'x'.repeat(1001) }), 'body/description must NOT have more than 1000 characters'],
    ['{"description":5}', 'body/description must be string or null'],
    ['{"id":2}', "body must NOT have additional property 'id'"],
    ['{"parentId":2}', "body must NOT have additional property 'parentId'"],
    ['[]', 'body must be object'],
    ['null', 'body must be object']
  ]
  for (const [payload, message] of cases) {
    const res = await patch(app, 1, payload)
    t.equal(res.statusCode, 400, payload)
    t.equal(res.headers['content-type'], JSON_TYPE, payload)
    t.equal(res.headers['api-stability'], 'beta', payload)
    t.same(res.json(), errorBody('invalid_request', message, 400), payload)
  }
  const noType = await patch(app, 1, '{"name":"Hounds"}', AUTH)
  t.equal(noType.statusCode, 400)
  t.same(noType.json(), errorBody('unsupported_media_type', 'Content-Type must be application/merge-patch+json or application/json', 400))
  t.equal((await read(app, 1)).body, categoryBody({ id: 1, name: 'Dogs', description: 'Woof' }), 'unchanged')
})

t.test('If-Match makes the edit conditional on the current ETag', async (t) => {
  const app = await build(t)
  await addCategory(app, { name: 'Dogs' })
  const first = await read(app, 1)
  const matched = await patch(app, 1, '{"name":"Hounds"}', { ...MERGE_PATCH, 'if-match': first.etag! })
  t.equal(matched.statusCode, 200)
  const second = await read(app, 1)
  t.equal(matched.headers.etag, second.etag)
  t.not(second.etag, first.etag)
  const stale = errorBody('precondition_failed', 'Category 1 was not changed: its current ETag is not one If-Match names', 412)
  for (const ifMatch of [first.etag!, `W/${second.etag!}`, '"nonsense"']) {
    const res = await patch(app, 1, '{"name":"Curs"}', { ...MERGE_PATCH, 'if-match': ifMatch })
    t.equal(res.statusCode, 412, ifMatch)
    t.equal(res.headers['content-type'], JSON_TYPE, ifMatch)
    t.equal(res.headers['api-stability'], 'beta', ifMatch)
    t.equal(res.headers.etag, undefined, ifMatch)
    t.same(res.json(), stale, ifMatch)
  }
  t.same(await read(app, 1), second, 'nothing changed')
  const any = await patch(app, 1, '{"description":"any"}', { ...MERGE_PATCH, 'if-match': '*' })
  t.equal(any.statusCode, 200, '* matches any existing category')
  t.equal(any.body, categoryBody({ id: 1, name: 'Hounds', description: 'any' }))
})

t.test('updateCategory answers 404 for an unknown or deleted category, 400 for a malformed id', async (t) => {
  const app = await build(t)
  await addCategory(app, { name: 'Dogs' })
  await app.inject({ method: 'DELETE', url: '/v1/categories/1', headers: AUTH })
  const cases: Array<[string, number, object]> = [
    ['1', 404, errorBody('not_found', 'Category 1 not found', 404)],
    ['9223372036854775807', 404, errorBody('not_found', 'Category 9223372036854775807 not found', 404)],
    ['0', 400, errorBody('invalid_request', 'params/categoryId must be >= 1', 400)],
    ...NOT_DECIMAL_DIGITS.map((text): [string, number, object] => [text, 400, errorBody('invalid_request', 'params/categoryId must be integer', 400)])
  ]
  for (const [id, status, body] of cases) {
    const res = await patch(app, id, '{}')
    t.equal(res.statusCode, status, id)
    t.equal(res.headers['content-type'], JSON_TYPE, id)
    t.same(res.json(), body, id)
  }
})

t.test('renaming a category leaves its pets as they are', async (t) => {
  const app = await build(t)
  await addCategory(app, { name: 'Dogs' })
  const pet = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1 } })
  await patch(app, 1, '{"name":"Hounds"}')
  t.equal((await app.inject({ url: '/v1/pets/1', headers: AUTH })).body, pet.body)
})
