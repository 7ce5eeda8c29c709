/**
 * createCategory, on whichever database this run tests: the whole 201, names kept exactly
 * as sent and unique once in NFC and case-folded (409), strict bodies, Idempotency-Key.
 */
import { join } from 'node:path'
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { AUTH, build, JSON_HEADERS, TEST_DATABASE, testDatabaseUrl } from '../../helpers/app.ts'
import { categoryBody, errorBody, JSON_TYPE } from '../../helpers/answers.ts'
import { tempDir } from '../../helpers/process.ts'
import { rowCount } from '../../helpers/store.ts'

const CATEGORIES = '/v1/categories'

const create = (app: FastifyInstance, payload: string | object, headers: Record<string, string> = JSON_HEADERS) =>
  app.inject({ method: 'POST', url: CATEGORIES, headers, payload })

t.test('createCategory answers 201 with the category and its assigned, increasing id', async (t) => {
  const app = await build(t)
  const res = await create(app, { name: 'Dogs', description: 'Every dog of the store' }, { ...JSON_HEADERS, 'x-request-id': 'create-dogs' })
  t.equal(res.statusCode, 201)
  t.equal(res.headers['content-type'], JSON_TYPE)
  t.equal(res.headers['api-stability'], 'beta')
  t.equal(res.headers['cache-control'], 'no-store')
  t.equal(res.headers['x-request-id'], 'create-dogs')
  t.equal(res.headers.etag, undefined)
  t.equal(res.body, categoryBody({ id: 1, name: 'Dogs', description: 'Every dog of the store' }))
  const cats = await create(app, { name: 'Cats' })
  t.equal(cats.statusCode, 201)
  t.equal(cats.body, categoryBody({ id: 2, name: 'Cats' }), 'no description key when none was given')
  const empty = await create(app, { description: '', name: 'Birds' })
  t.equal(empty.body, categoryBody({ id: 3, name: 'Birds', description: '' }), 'an empty description is kept as sent')
})

t.test('a name another category has, once in NFC and case-folded, is 409 conflict naming it, and nothing is made', async (t) => {
  const app = await build(t)
  await create(app, { name: 'Dogs' })
  await create(app, { name: 'Straße' })
  await create(app, { name: 'Café' })
  const cases: Array<[string, number, string]> = [
    ['Dogs', 1, 'Dogs'],
    ['dogs', 1, 'dogs'],
    ['DOGS', 1, 'DOGS'],
    ['STRASSE', 2, 'STRASSE'],
    ['strasse', 2, 'strasse'],
    // "e" and a combining acute accent: "Café" once in NFC.
    ['Cafe\u0301', 3, 'Cafe\u0301'],
    ['CAFÉ', 3, 'CAFÉ']
  ]
  for (const [name, holder, shown] of cases) {
    const res = await create(app, { name })
    t.equal(res.statusCode, 409, name)
    t.equal(res.headers['content-type'], JSON_TYPE, name)
    t.equal(res.headers['api-stability'], 'beta', name)
    t.same(res.json(), errorBody('conflict', `Category ${holder} is named ${JSON.stringify(shown)} already; category names are unique, whatever their case`, 409), name)
  }
  t.equal(await rowCount(app, 'categories'), 3, 'nothing was made')
  const other = await create(app, { name: 'Dogs ' })
  t.equal(other.statusCode, 201, 'a trailing space makes another name: names are kept exactly as sent')
  t.equal(other.body, categoryBody({ id: 4, name: 'Dogs ' }))
})

const NAME_RULE = 'must contain a visible character and no control characters, unpaired surrogates, bidirectional controls or invisible format characters'

t.test('createCategory refuses invalid bodies with 400 naming the field, and makes nothing', async (t) => {
  const app = await build(t)
  const cases: Array<[string, string, string, string]> = [
    ['missing name', '{"description":"x"}', 'invalid_request', "body must have required property 'name'"],
    ['client id', '{"id":7,"name":"Dogs"}', 'invalid_request', "body must NOT have additional property 'id'"],
    ['unknown field', '{"name":"Dogs","parentId":1}', 'invalid_request', "body must NOT have additional property 'parentId'"],
    ['empty name', '{"name":""}', 'invalid_request', 'body/name must NOT have fewer than 1 characters'],
    ['long name', JSON.stringify({ name: 'x'.repeat(101) }), 'invalid_request', 'body/name must NOT have more than 100 characters'],
    ['blank name', '{"name":"   "}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['tab in name', '{"name":"Do\\tgs"}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['a bidi override', '{"name":"Dogs\\u202e"}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['a zero width space', '{"name":"Do\\u200bgs"}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['numeric name', '{"name":5}', 'invalid_request', 'body/name must be string'],
    ['null name', '{"name":null}', 'invalid_request', 'body/name must be string'],
    ['null description', '{"name":"Dogs","description":null}', 'invalid_request', 'body/description must be string'],
    ['long description', JSON.stringify({ name: 'Dogs', description: 'x'.repeat(1001) }), 'invalid_request', 'body/description must NOT have more than 1000 characters'],
    ['NUL in description', '{"name":"Dogs","description":"a\\u0000b"}', 'invalid_request', 'body/description must not contain NUL (U+0000) or unpaired UTF-16 surrogates'],
    ['array body', '[{"name":"Dogs"}]', 'invalid_request', 'body must be object'],
    ['not JSON', '{"name":', 'invalid_json', "Body is not valid JSON: Object value expected after ':' at position 8"],
    ['empty body', '', 'invalid_request', 'body is required, as application/json']
  ]
  for (const [what, payload, code, message] of cases) {
    const res = await create(app, payload)
    t.equal(res.statusCode, 400, what)
    t.equal(res.headers['content-type'], JSON_TYPE, what)
    t.equal(res.headers['api-stability'], 'beta', what)
    t.same(res.json(), errorBody(code, message, 400), what)
  }
  const noType = await create(app, '{"name":"Dogs"}', AUTH)
  t.equal(noType.statusCode, 400)
  t.same(noType.json(), errorBody('unsupported_media_type', 'Content-Type must be application/json', 400))
  t.equal(await rowCount(app, 'categories'), 0, 'nothing was made')
})

t.test('createCategory takes 100 characters, emoji and a 1000-character description', async (t) => {
  const app = await build(t)
  const name = 'é'.repeat(100)
  const res = await create(app, { name, description: 'd'.repeat(1000) })
  t.equal(res.statusCode, 201)
  t.equal(res.body, categoryBody({ id: 1, name, description: 'd'.repeat(1000) }))
  const emoji = await create(app, { name: '🐕‍🦺 Service dogs' })
  t.equal(emoji.statusCode, 201)
  t.equal(emoji.json().name, '🐕‍🦺 Service dogs')
})

t.test('without a key, 401 with the challenge, and nothing is made', async (t) => {
  const app = await build(t)
  const res = await create(app, { name: 'Dogs' }, { 'content-type': 'application/json' })
  t.equal(res.statusCode, 401)
  t.equal(res.headers['content-type'], JSON_TYPE)
  t.equal(res.headers['www-authenticate'], 'Bearer realm="petstore"')
  t.same(res.json(), errorBody('unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>', 401))
  t.equal(await rowCount(app, 'categories'), 0)
})

t.test('an Idempotency-Key replays the first answer and makes one category', async (t) => {
  const app = await build(t)
  const headers = { ...JSON_HEADERS, 'idempotency-key': 'create-dogs-1' }
  const first = await create(app, { name: 'Dogs' }, headers)
  t.equal(first.statusCode, 201)
  t.equal(first.headers['idempotent-replayed'], undefined)
  const again = await create(app, { name: 'Dogs' }, headers)
  t.equal(again.statusCode, 201, 'a replay, not a 409 for the name')
  t.equal(again.headers['idempotent-replayed'], 'true')
  t.equal(again.headers['content-type'], JSON_TYPE)
  t.equal(again.body, first.body)
  const other = await create(app, { name: 'Cats' }, headers)
  t.equal(other.statusCode, 422)
  t.same(other.json(), errorBody('idempotency_key_reused', 'This Idempotency-Key was used for a different request; use a new key for a new request', 422))
  t.equal(await rowCount(app, 'categories'), 1)
})

t.test('creates of one name sent at once make one category; the others are 409', async (t) => {
  const app = await build(t)
  const answers = await Promise.all(['Dogs', 'DOGS', 'dogs', 'Dogs', 'dOGS'].map((name) => create(app, { name })))
  t.equal(answers.filter((res) => res.statusCode === 201).length, 1)
  t.equal(answers.filter((res) => res.statusCode === 409).length, 4)
  t.equal(await rowCount(app, 'categories'), 1)
})

t.test('two instances on one database, creating one name at once, make one category', async (t) => {
  // A file on SQLite (two connections), one made database on PostgreSQL.
  const url = TEST_DATABASE === 'postgres' ? await testDatabaseUrl(t) : join(tempDir(t), 'petstore.db')
  const one = await build(t, { database: { url } })
  const other = await build(t, { database: { url } })
  for (let round = 0; round < 5; round++) {
    const answers = await Promise.all([one, other, one, other].map((app, i) => create(app, { name: i % 2 === 0 ? `Dogs ${round}` : `DOGS ${round}` })))
    t.same(answers.map((res) => res.statusCode).sort(), [201, 409, 409, 409], `round ${round}: one 201, the others 409`)
    const made = answers.find((res) => res.statusCode === 201)!.json()
    for (const refused of answers.filter((res) => res.statusCode === 409)) {
      t.match(refused.json(), { code: 'conflict', status: 409, message: new RegExp(`^Category ${made.id as number} is named "(Dogs|DOGS) ${round}" already`) })
    }
  }
  t.equal(await rowCount(one, 'categories'), 5)
  const ids = (await one.inject({ url: '/v1/categories', headers: AUTH })).json().map((category: { id: number }) => category.id)
  t.same(ids, [...ids].sort((a: number, b: number) => a - b), 'listed in id order')
})
