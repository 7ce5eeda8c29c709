import t from 'tap'
import { build } from '../../helpers/app.ts'
import { errorBody } from '../../helpers/answers.ts'

t.test('/healthz and /readyz answer ok without a key', async (t) => {
  const app = await build(t)
  for (const url of ['/healthz', '/readyz']) {
    const res = await app.inject({ url })
    t.equal(res.statusCode, 200, url)
    t.same(res.json(), { status: 'ok' }, url)
  }
})

t.test('/readyz answers 503 unavailable when the database is gone', async (t) => {
  const app = await build(t)
  await app.db.destroy()
  const res = await app.inject({ url: '/readyz' })
  t.equal(res.statusCode, 503)
  t.equal(res.headers['retry-after'], '5')
  t.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  t.same(res.json(), errorBody('unavailable', 'Database is not answering', 503))
  const alive = await app.inject({ url: '/healthz' })
  t.equal(alive.statusCode, 200, 'the process itself is still alive')
})
