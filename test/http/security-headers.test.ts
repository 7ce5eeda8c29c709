import t from 'tap'
import { AUTH, build } from '../helpers/app.ts'

const API_HEADERS = {
  'content-security-policy': "default-src 'none';frame-ancestors 'none'",
  'cross-origin-resource-policy': 'same-origin',
  'referrer-policy': 'no-referrer',
  'strict-transport-security': 'max-age=31536000; includeSubDomains',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY'
}
const HTML_ONLY = ['cross-origin-opener-policy', 'origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options',
  'x-permitted-cross-domain-policies', 'x-xss-protection']

t.test('API answers carry the JSON API set of security headers, errors included', async (t) => {
  const app = await build(t)
  for (const [url, headers] of [['/v1/pets', AUTH], ['/v1/pets', {}], ['/v1/pets?limit=0', AUTH], ['/healthz', {}], ['/nowhere', {}]] as const) {
    const res = await app.inject({ url, headers })
    t.match(res.headers, API_HEADERS, url)
    for (const name of HTML_ONLY) t.equal(res.headers[name], undefined, `${url}: no ${name}`)
  }
})

t.test('the docs page carries a CSP that lets Swagger UI work and nothing else', async (t) => {
  const app = await build(t)
  for (const url of ['/docs/', '/docs/static/swagger-initializer.js', '/docs/static/theme/favicon.svg', '/docs/static/theme/docs.css', '/openapi.json']) {
    const res = await app.inject({ url })
    t.equal(res.statusCode, 200, url)
    t.equal(res.headers['content-security-policy'],
      "default-src 'self';script-src 'self';script-src-attr 'none';font-src 'self' data:;style-src 'self' 'unsafe-inline';" +
      "img-src 'self' data:;connect-src 'self';form-action 'self';frame-ancestors 'none';object-src 'none';base-uri 'self'", url)
    t.equal(res.headers['x-content-type-options'], 'nosniff', url)
    t.equal(res.headers['x-frame-options'], 'DENY', url)
    t.equal(res.headers['cross-origin-opener-policy'], 'same-origin', url)
  }
})
