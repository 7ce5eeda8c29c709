/**
 * One measured run of the benchmark (scripts/bench/measure.ts): a run that ends before the
 * first answer, as a tiny run can on a busy machine, runs again for longer rather than
 * printing a rate of 0; a server that never answers fails the run with a line saying so.
 */
import t from 'tap'
import { measure } from '../../scripts/bench/measure.ts'
import { startReceiver } from '../helpers/receiver.ts'

const scenario = { name: 'GET /slow', path: () => '/slow' }
const options = { seconds: 0.05, connections: 2, headers: {}, pets: 1 }

t.test('a run that ended before the first answer runs again, longer, and gives the rate it then found', async (t) => {
  const server = await startReceiver(t, 'hang', '')
  // Answers only once a run of 0.05 s has passed with none.
  setTimeout(() => { server.answer = { status: 200 } }, 150)
  const result = await measure(server.url, scenario, options)
  t.ok(result.rps > 0, `a rate: ${result.rps} requests a second`)
  t.ok(server.received.length > 2, 'asked more than one run\'s first requests')
})

t.test('a server that never answers fails the run, naming the row, the server and how long it waited', async (t) => {
  const { url } = await startReceiver(t, 'hang', '')
  await t.rejects(measure(url, scenario, { ...options, longestSeconds: 0.2 }), new Error(`GET /slow on ${url}: no answer in a run of 0.2 s`))
})
