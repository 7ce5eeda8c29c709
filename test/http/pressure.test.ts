import t from 'tap'
import { AUTH, build } from '../helpers/app.ts'
import { errorBody } from '../helpers/answers.ts'
import { until } from '../helpers/until.ts'

// The sampling interval stays above the event-loop-delay histogram's 10 ms resolution: an
// interval without a sample reads as an infinite delay.
t.test('under pressure, requests get 503 unavailable with Retry-After; /healthz still answers', async (t) => {
  // Any heap is "too full" at one byte, so the service is under pressure from the first sample.
  const app = await build(t, { pressure: { maxHeapUsedBytes: 1, sampleIntervalMs: 50 } })
  await app.ready()
  await until(async () => (await app.inject({ url: '/v1/pets', headers: AUTH })).statusCode === 503, 'the first sample to see the pressure')
  for (const url of ['/v1/pets', '/readyz']) {
    const res = await app.inject({ url, headers: AUTH })
    t.equal(res.statusCode, 503, url)
    t.equal(res.headers['retry-after'], '5', url)
    t.equal(res.headers['content-type'], 'application/json; charset=utf-8', url)
    t.same(res.json(), errorBody('unavailable', 'The service is overloaded; retry after the Retry-After delay', 503), url)
  }
  const alive = await app.inject({ url: '/healthz' })
  t.equal(alive.statusCode, 200)
})

t.test('under its limits, nothing is refused', async (t) => {
  // A heap limit far above any heap, and no event-loop limit: this machine's own load
  // (a busy CI run can stall the loop past the default 200 ms) cannot decide the outcome.
  const app = await build(t, { pressure: { sampleIntervalMs: 50, maxEventLoopDelayMs: 0, maxHeapUsedBytes: 1e12 } })
  await app.ready()
  // Several samples in, so a wrong reading would have shown by now.
  await until(() => app.memoryUsage().eventLoopDelay > 0, 'a few load samples')
  for (let i = 0; i < 5; i++) t.equal((await app.inject({ url: '/v1/pets', headers: AUTH })).statusCode, 200)
})
