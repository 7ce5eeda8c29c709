import t from 'tap'
import { AUTH, build } from '../helper.ts'

t.test('security headers on API answers and on the docs page', async (t) => {
  const app = await build(t)
  for (const [url, headers] of [['/v1/pets', AUTH], ['/v1/pets', {}], ['/docs/', {}]] as const) {
    const res = await app.inject({ url, headers })
    t.equal(res.headers['x-content-type-options'], 'nosniff', url)
    t.equal(res.headers['x-frame-options'], 'SAMEORIGIN', url)
    t.equal(res.headers['strict-transport-security'], 'max-age=31536000; includeSubDomains', url)
    t.equal(res.headers['content-security-policy'],
      "default-src 'self';script-src 'self';script-src-attr 'none';font-src 'self' data:;style-src 'self' 'unsafe-inline';" +
      "img-src 'self' data:;connect-src 'self';form-action 'self';frame-ancestors 'none';object-src 'none';base-uri 'self'", url)
  }
})
