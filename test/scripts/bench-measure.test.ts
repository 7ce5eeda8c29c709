/**
 * One measured run of the benchmark (scripts/bench/measure.ts): a run that ends before the
 * first answer, as a tiny run can on a busy machine, runs again for longer rather than
 * printing a rate of 0; a server that never answers fails the run with a line saying so.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import t, { type Test } from 'tap'
import { measure } from '../../scripts/bench/measure.ts'

/** A server that holds every request until `answering` says to answer. */
async function server (t: Test, answering: () => boolean): Promise<{ base: string, asked: () => number }> {
  let asked = 0
  const held: Array<() => void> = []
  const app: Server = createServer((_request, response) => {
    asked++
    const answer = () => response.end('{}')
    if (answering()) answer()
    else held.push(answer)
  })
  const release = setInterval(() => { if (answering()) held.splice(0).forEach((answer) => answer()) }, 5)
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve))
  t.teardown(() => {
    clearInterval(release)
    app.closeAllConnections()
    app.close()
  })
  return { base: `http://127.0.0.1:${(app.address() as AddressInfo).port}`, asked: () => asked }
}

const scenario = { name: 'GET /slow', path: () => '/slow' }
const options = { seconds: 0.05, connections: 2, headers: {}, pets: 1 }

t.test('a run that ended before the first answer runs again, longer, and gives the rate it then found', async (t) => {
  let firstRunOver = false
  const { base, asked } = await server(t, () => firstRunOver)
  // Answers only once a run of 0.05 s has passed with none.
  setTimeout(() => { firstRunOver = true }, 150)
  const result = await measure(base, scenario, options)
  t.ok(result.rps > 0, `a rate: ${result.rps} requests a second`)
  t.ok(asked() > 2, 'asked more than one run\'s first requests')
})

t.test('a server that never answers fails the run, naming the row, the server and how long it waited', async (t) => {
  const { base } = await server(t, () => false)
  await t.rejects(measure(base, scenario, { ...options, longestSeconds: 0.2 }), new Error(`GET /slow on ${base}: no answer in a run of 0.2 s`))
})
