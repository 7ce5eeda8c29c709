/**
 * Whether the API's requests keep the service busy, which slows the deliveries' pace: a
 * loop kept busy by requests is; one kept busy by anything else, or a quiet one, is not.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import t from 'tap'
import { RequestPressure } from '../../../src/features/webhooks/request-pressure.ts'

/**
 * Keeps the event loop busy for `ms`, as a flow of work would, once it runs: Node 24 counts
 * no utilization before the loop's first turn, which a test at the top of a file runs in.
 */
async function spin (ms: number): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve))
  for (const start = performance.now(); performance.now() - start < ms;);
}

t.test('a busy event loop with requests answered is busy', async (t) => {
  const pressure = new RequestPressure()
  await spin(150)
  pressure.answered()
  t.equal(pressure.busy(), true)
})

t.test('a busy event loop with no request answered is not: deliveries alone go at full speed', async (t) => {
  const pressure = new RequestPressure()
  await spin(150)
  t.equal(pressure.busy(), false)
})

t.test('requests answered on a quiet event loop are not', async (t) => {
  const pressure = new RequestPressure()
  await sleep(150)
  pressure.answered()
  t.equal(pressure.busy(), false)
})
