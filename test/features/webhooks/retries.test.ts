/**
 * The retry schedule: WEBHOOK_RETRY_DELAYS read as durations, N delays for N + 1 attempts,
 * each lengthened by at most 20%, a longer Retry-After winning.
 */
import t from 'tap'
import { DEFAULT_RETRY_DELAYS, parseRetryDelays, retryDelay } from '../../../src/features/webhooks/retries.ts'

t.test('the default: ten attempts over about three days', async (t) => {
  const delays = parseRetryDelays(DEFAULT_RETRY_DELAYS)
  t.equal(delays.length, 9)
  t.same(delays.slice(0, 3), [5000, 300_000, 1_800_000])
  const total = delays.reduce((sum, delay) => sum + delay, 0)
  t.ok(total > 2.9 * 86_400_000 && total < 3.5 * 86_400_000, `${(total / 86_400_000).toFixed(2)} days`)
})

t.test('durations in ms, s, m, h or d; anything else refused, naming it', async (t) => {
  t.same(parseRetryDelays('250ms, 1s,2m,3h,1d'), [250, 1000, 120_000, 10_800_000, 86_400_000])
  t.same(parseRetryDelays(''), [], 'no retries: one attempt')
  for (const bad of ['5', '5 s', '1.5s', '-1s', '5w', 's']) {
    t.throws(() => parseRetryDelays(`1s,${bad}`), { message: `not a duration (a whole number and ms, s, m, h or d, such as 5s or 2h): ${bad.trim()}` }, bad)
  }
})

t.test('each wait is lengthened by up to 20%, never shortened; none after the last', async (t) => {
  const delays = [1000, 60_000]
  t.equal(retryDelay(delays, 1, () => 0), 1000)
  t.equal(retryDelay(delays, 1, () => 0.999), 1200)
  t.equal(retryDelay(delays, 2, () => 0.5), 66_000)
  t.equal(retryDelay(delays, 3, () => 0.5), undefined, 'the third attempt was the last')
  for (let i = 0; i < 200; i++) {
    const delay = retryDelay(delays, 2)!
    if (delay < 60_000 || delay > 72_000) t.fail(`${delay} is outside 60 000 to 72 000`)
  }
  t.equal(retryDelay(delays, 1, () => 0, 30_000), 30_000, 'a longer Retry-After wins')
  t.equal(retryDelay(delays, 1, () => 0, 10), 1000, 'a shorter one does not')
  t.equal(retryDelay(delays, 3, () => 0, 30_000), undefined, 'nor makes one more attempt')
  t.equal(retryDelay(delays, 1, () => 0, 9_999_999_999_999_000), 60_000, 'an absurd one waits the longest delay')
  t.equal(retryDelay(delays, 1, () => 0, Number.POSITIVE_INFINITY), 60_000, 'and so does one that is no time')
})
