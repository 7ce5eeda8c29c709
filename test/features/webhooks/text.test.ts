/**
 * The text fields of a webhook endpoint (`url`, `description`), on whichever database this
 * run tests: a NUL or an unpaired surrogate, which no database stores as sent (PostgreSQL
 * text holds no NUL; UTF-8 has no lone surrogate), is refused with the whole Error body and
 * nothing is stored; any other text, controls and emoji included, is stored as sent.
 */
import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { errorBody, JSON_TYPE } from '../../helpers/answers.ts'
import { rowCount } from '../../helpers/store.ts'
import { parseNetworks } from '../../../src/config/values.ts'

const TEXT_RULE = 'must not contain NUL (U+0000) or unpaired UTF-16 surrogates'
const MERGE_PATCH = { ...AUTH, 'content-type': 'application/merge-patch+json' }
// Plain http to 127.0.0.1 is let through, and no name is looked up.
const URL = 'http://127.0.0.1:9/hooks'

// JSON escapes, as a client sends them: the body itself is valid UTF-8.
const REFUSED: Array<[string, string]> = [
  ['a NUL', 'a\\u0000b'],
  ['a NUL alone', '\\u0000'],
  ['a lone high surrogate', 'x\\ud800y'],
  ['a lone low surrogate', 'x\\udc00y'],
  ['a low surrogate before a high one', '\\ude00\\ud83d']
]

async function app (t: Test): Promise<FastifyInstance> {
  return build(t, { webhooks: { allowedNetworks: parseNetworks('127.0.0.0/8') } })
}

/** A create body with `field` holding `escaped`, as JSON text. */
function createBody (field: 'url' | 'description', escaped: string): string {
  const url = field === 'url' ? `"${URL}/${escaped}"` : `"${URL}"`
  const description = field === 'description' ? `,"description":"${escaped}"` : ''
  return `{"url":${url},"events":["*"]${description}}`
}

t.test('createWebhookEndpoint refuses a NUL or an unpaired surrogate in url or description, and adds nothing', async (t) => {
  const service = await app(t)
  for (const field of ['url', 'description'] as const) {
    for (const [what, escaped] of REFUSED) {
      const res = await service.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: JSON_HEADERS, payload: createBody(field, escaped) })
      t.equal(res.statusCode, 400, `${field}: ${what}`)
      t.equal(res.headers['content-type'], JSON_TYPE)
      t.same(res.json(), errorBody('invalid_request', `body/${field} ${TEXT_RULE}`, 400), `${field}: ${what}`)
    }
  }
  t.equal(await rowCount(service, 'webhook_endpoints'), 0, 'no endpoint was added')
})

t.test('updateWebhookEndpoint refuses them too, and changes nothing', async (t) => {
  const service = await app(t)
  const created = await service.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: JSON_HEADERS, payload: { url: URL, events: ['*'], description: 'kept' } })
  const { secret: _secret, ...endpoint } = created.json()
  for (const field of ['url', 'description'] as const) {
    for (const [what, escaped] of REFUSED) {
      const payload = `{"${field}":"${field === 'url' ? `${URL}/` : ''}${escaped}"}`
      const res = await service.inject({ method: 'PATCH', url: '/v1/webhook-endpoints/1', headers: MERGE_PATCH, payload })
      t.equal(res.statusCode, 400, `${field}: ${what}`)
      t.equal(res.headers['content-type'], JSON_TYPE)
      t.same(res.json(), errorBody('invalid_request', `body/${field} ${TEXT_RULE}`, 400), `${field}: ${what}`)
    }
  }
  const got = await service.inject({ url: '/v1/webhook-endpoints/1', headers: AUTH })
  t.same(got.json(), endpoint, 'the endpoint is as it was')
  t.equal(await rowCount(service, 'webhook_endpoints'), 1)
})

t.test('any other text is stored and read back as sent: controls, paired surrogates, the longest allowed', async (t) => {
  const service = await app(t)
  const texts = ['tab\tnew line\nbell\u0007', 'emoji 😀 and 𝄞', '\u200b\u202eright to left', '😀'.repeat(500)]
  for (const description of texts) {
    const created = await service.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: JSON_HEADERS, payload: { url: `${URL}/😀`, events: ['*'], description } })
    t.equal(created.statusCode, 201, JSON.stringify(description.slice(0, 20)))
    const got = await service.inject({ url: `/v1/webhook-endpoints/${created.json().id}`, headers: AUTH })
    t.same([got.json().url, got.json().description], [`${URL}/😀`, description], 'as sent')
  }
  const patched = await service.inject({ method: 'PATCH', url: '/v1/webhook-endpoints/1', headers: MERGE_PATCH, payload: { description: 'é\r\n😀' } })
  t.equal(patched.json().description, 'é\r\n😀')
})
