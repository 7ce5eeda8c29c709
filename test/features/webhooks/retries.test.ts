/**
 * The retry schedule: N delays for N + 1 attempts, each lengthened by at most 20%, a longer
 * Retry-After winning. WEBHOOK_RETRY_DELAYS is read in test/config/values.test.ts.
 */
import t from 'tap'
import { retryDelay } from '../../../src/features/webhooks/retries.ts'

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
