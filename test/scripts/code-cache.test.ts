/**
 * dist/server.js (what scripts/start.js runs) compiles the bundle with the code cache `npm run build` made for it
 * (scripts/bundle-entry.js, scripts/code-cache.ts): taken with the Node and npm start's node
 * options it names beside it; not read with other ones, which a line on stderr says (V8
 * refuses some, and another Node's every time), and the service starts all the same; not
 * used with source maps on, where the bundle is required as a module.
 */
import { existsSync, readFileSync } from 'node:fs'
import t, { type Test } from 'tap'
import { npmStart } from '../../scripts/lib/spawn-server.ts'
import { builtServer, startServer } from '../helpers/process.ts'
import { AUTH, TEST_KEY } from '../helpers/app.ts'

const REFUSED = /bundle\.cjs\.cache was made for another Node or other node options than these \(.*\); starting without it, which is slower \(npm run build makes it again\)\n/

/**
 * The build started with npm start's node options and `nodeArgs` on a database in memory,
 * as a process of its own: without the hooks the test runner gives every process a test
 * starts (NODE_OPTIONS), which turn source maps on, nor Node's coverage, which does too.
 * What it printed by the time it served, and what a listing got.
 */
async function start (t: Test, nodeArgs: string[] = []) {
  const server = await startServer(t, { DATABASE_URL: ':memory:', PETSTORE_API_KEYS: TEST_KEY }, {
    built: true, nodeArgs, unset: ['NODE_OPTIONS', 'NODE_V8_COVERAGE']
  })
  const listing = await fetch(`${server.base}/v1/pets?limit=1`, { headers: AUTH })
  return { served: listing.status, output: server.output() }
}

t.test('with npm start\'s node options, the build\'s code cache is taken', async (t) => {
  await builtServer()
  t.ok(existsSync(new URL('../../dist/bundle.cjs.cache', import.meta.url)), 'npm run build made it')
  t.same(JSON.parse(readFileSync(new URL('../../dist/bundle.cjs.cache.json', import.meta.url), 'utf8')),
    { node: process.version, v8: process.versions.v8, options: npmStart().nodeArgs }, 'for this Node and npm start\'s options')
  const { served, output } = await start(t)
  t.equal(served, 200)
  t.notMatch(output, REFUSED, 'not refused')
})

t.test('with other node options, it is not read: a line says so, and the service starts all the same', async (t) => {
  const { served, output } = await start(t, ['--max-semi-space-size=16'])
  t.equal(served, 200)
  t.match(output, REFUSED)
})

t.test('with source maps on, the bundle is required as a module, without the cache', async (t) => {
  const { served, output } = await start(t, ['--max-semi-space-size=16', '--enable-source-maps'])
  t.equal(served, 200)
  t.notMatch(output, REFUSED, 'no cache read, so none refused')
})
