/**
 * The variables whose values are more than a number or a word (src/config/values.ts): each
 * read into what the service uses, or refused saying what is wrong. How a refusal names its
 * variable: test/config/config.test.ts.
 */
import t from 'tap'
import { DEFAULTS } from '../../src/config/defaults.ts'
import { parseRetryDelays } from '../../src/config/values.ts'

t.test('the default retry schedule: ten attempts over about three days', async (t) => {
  const delays = DEFAULTS.webhooks.retryDelaysMs
  t.equal(delays.length, 9)
  t.same(delays.slice(0, 3), [5000, 300_000, 1_800_000])
  const total = delays.reduce((sum, delay) => sum + delay, 0)
  t.ok(total > 2.9 * 86_400_000 && total < 3.5 * 86_400_000, `${(total / 86_400_000).toFixed(2)} days`)
})

t.test('retry delays: durations in ms, s, m, h or d; anything else refused, naming it', async (t) => {
  t.same(parseRetryDelays('250ms, 1s,2m,3h,1d'), [250, 1000, 120_000, 10_800_000, 86_400_000])
  t.same(parseRetryDelays(''), [], 'no retries: one attempt')
  for (const bad of ['5', '5 s', '1.5s', '-1s', '5w', 's']) {
    t.throws(() => parseRetryDelays(`1s,${bad}`), { message: `not a duration (a whole number and ms, s, m, h or d, such as 5s or 2h): ${bad.trim()}` }, bad)
  }
})
