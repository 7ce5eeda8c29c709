import t from 'tap'
import { AUTH, build } from '../helpers/app.ts'

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

t.test('a sane incoming X-Request-Id is kept and returned', async (t) => {
  const app = await build(t)
  for (const id of ['abc-123', 'trace:9f2c.01@edge', 'x'.repeat(128)]) {
    const res = await app.inject({ url: '/v1/pets', headers: { ...AUTH, 'x-request-id': id } })
    t.equal(res.headers['x-request-id'], id)
  }
})

t.test('a missing or unsafe X-Request-Id is replaced by a fresh UUID', async (t) => {
  const app = await build(t)
  // One holding a key of this service too: the id is written on every log line.
  for (const id of [undefined, '', 'x'.repeat(129), 'has space', 'semi;colon', '<script>', 'a,b', 'quo"te', 'pst_AbCdEf0123456789-_xyz']) {
    const res = await app.inject({ url: '/v1/pets', headers: { ...AUTH, ...(id !== undefined && { 'x-request-id': id }) } })
    t.match(res.headers['x-request-id'], UUID, JSON.stringify(id))
  }
})

t.test('errors carry the request id too', async (t) => {
  const app = await build(t)
  for (const [url, headers] of [['/v1/pets', {}], ['/v1/pets?limit=0', AUTH], ['/nowhere', {}]] as const) {
    const res = await app.inject({ url, headers: { ...headers, 'x-request-id': 'req-7' } })
    t.ok(res.statusCode >= 400, url)
    t.equal(res.headers['x-request-id'], 'req-7', url)
  }
})
