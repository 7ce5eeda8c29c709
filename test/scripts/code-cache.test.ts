/**
 * dist/server.js compiles the bundle with the code cache `npm run build` made for it
 * (scripts/bundle-entry.js, scripts/code-cache.ts): taken with npm start's node options;
 * refused by V8 with other ones, which a line on stderr says, and the service starts all the
 * same; not used with source maps on, where the bundle is required as a module.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import t, { type Test } from 'tap'
import { builtServer } from '../helpers/process.ts'
import { AUTH, TEST_KEY } from '../helpers/app.ts'
import { until } from '../helpers/until.ts'

const REFUSED = /bundle\.cjs\.cache was made for another Node or other node options than npm start's; starting without it, which is slower \(npm run build makes it again\)\n/

/**
 * The build started with `nodeArgs` on a database in memory, as a process of its own:
 * without the hooks the test runner gives every process a test starts (NODE_OPTIONS),
 * which turn source maps on, nor Node's coverage, which does too. What it printed by the
 * time it served, and what a listing got.
 */
async function start (t: Test, nodeArgs: string[]) {
  const { env } = await builtServer()
  const child = spawn('env', ['-u', 'NODE_OPTIONS', '-u', 'NODE_V8_COVERAGE', process.execPath, ...nodeArgs, 'dist/server.js'], {
    cwd: new URL('../..', import.meta.url), env: { ...process.env, ...env, PORT: '0', DATABASE_URL: ':memory:', PETSTORE_API_KEYS: TEST_KEY }
  })
  t.teardown(async () => {
    if (child.exitCode !== null) return
    child.kill('SIGKILL')
    await once(child, 'exit')
  })
  let output = ''
  child.stdout.on('data', (chunk: Buffer) => { output += chunk })
  child.stderr.on('data', (chunk: Buffer) => { output += chunk })
  await until(() => / on (http:\/\/\S+)\/v1/.test(output) || child.exitCode !== null, 'the service to serve')
  const base = / on (http:\/\/\S+)\/v1/.exec(output)?.[1]
  const listing = await fetch(`${base}/v1/pets?limit=1`, { headers: AUTH })
  return { served: listing.status, output }
}

t.test('with npm start\'s node options, the build\'s code cache is taken', async (t) => {
  const { nodeArgs } = await builtServer()
  t.ok(existsSync(new URL('../../dist/bundle.cjs.cache', import.meta.url)), 'npm run build made it')
  const { served, output } = await start(t, nodeArgs)
  t.equal(served, 200)
  t.notMatch(output, REFUSED, 'not refused')
})

t.test('with other node options, V8 refuses it: a line says so, and the service starts all the same', async (t) => {
  const { nodeArgs } = await builtServer()
  const { served, output } = await start(t, [...nodeArgs, '--max-semi-space-size=16'])
  t.equal(served, 200)
  t.match(output, REFUSED)
})

t.test('with source maps on, the bundle is required as a module, without the cache', async (t) => {
  const { nodeArgs } = await builtServer()
  const { served, output } = await start(t, [...nodeArgs, '--max-semi-space-size=16', '--enable-source-maps'])
  t.equal(served, 200)
  t.notMatch(output, REFUSED, 'no cache read, so none refused')
})
