/**
 * Real processes: src/server.ts run as `npm start` runs it, for the tests that need a real
 * socket, signals or a crash, a stream of creates against it, and the programs of scripts/.
 */
import { execFile, execFileSync, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { connect } from 'node:net'
import { Agent, request } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import type { Test } from 'tap'
import { ensureFreshBuild } from '../../scripts/lib/fresh-build.js'
import { npmStart, spawnServer, type ServerProcess } from '../../scripts/lib/spawn-server.ts'

export type { ServerProcess }

const root = fileURLToPath(new URL('../..', import.meta.url))

/**
 * The coverage settings of the processes a test starts. When the test itself runs with
 * coverage (`npm test`), theirs goes to `.tap/children/<test file>/`, apart from the test
 * processes' coverage that the thresholds measure: it is for `npm run test:changed` to know
 * what a test ran in the processes it started (see the record step in scripts/lib/test-deps/). Without
 * (`--disable-coverage`), they run without too.
 */
/** A child's environment without any coverage: node-tap's off, and Node's own not written. */
const WITHOUT_COVERAGE = { _TAPJS_PROCESSINFO_COVERAGE_: '0', NODE_V8_COVERAGE: undefined }

export const CHILD_COVERAGE: Record<string, string | undefined> = process.env._TAPJS_PROCESSINFO_COVERAGE_ === '1'
  ? {
      _TAPJS_PROCESSINFO_COVERAGE_: '1',
      _TAPJS_PROCESSINFO_CWD_: join(root, '.tap', 'children', encodeURIComponent(relative(root, process.argv[1] ?? 'unknown'))),
      _TAPJS_PROCESSINFO_COV_FILES_: coveredInChildren().join('\n'),
      // Only the test processes need it (test/node-coverage.env); a child would write Node's
      // own coverage for nothing.
      NODE_V8_COVERAGE: undefined
    }
  : WITHOUT_COVERAGE

/**
 * The files whose coverage a started process records: the project's own, and the bundle
 * `npm start` runs. Named one by one because node-tap's default leaves out any script with
 * a source under node_modules, and the bundle is made of those as much as of ours: without
 * its coverage, a test that started the built service counted as having run every line of
 * it, and was chosen for any edit.
 */
function coveredInChildren (): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
  return [...listed.split('\0').filter(Boolean), 'dist/bundle.cjs'].map((path) => join(root, path))
}

/** What child processes run with: the tests' environment, and the coverage settings above. */
export const CHILD_ENV = { ...process.env, ...CHILD_COVERAGE }

/**
/**
 * Starts the server on a free port for test `t`, and kills it at the end of the test if it
 * still runs: from the sources, or, with `built`, the build as `npm start` runs it
 * (scripts/start.js, with its environment and node options). Without a DATABASE_URL in `env`, on a file
 * database of its own. `nodeArgs` go to node after those; `unset` variables are left out
 * of the server's environment (scripts/lib/spawn-server.ts).
 */
export async function startServer (t: Test, env: Record<string, string>, { built = false, nodeArgs: extraArgs = [] as string[], unset = [] as string[] } = {}): Promise<ServerProcess> {
  const { script, nodeArgs, env: startEnv } = built ? await builtServer() : { script: 'src/server.ts', nodeArgs: [], env: {} }
  const database = env.DATABASE_URL ?? join(tempDir(t), 'petstore.db')
  // Overload shedding off unless a test asks for it: the test files running beside it on a
  // small machine lag the event loop, and its 503s would blur what a test looks at.
  const server = await spawnServer(script, { ...startEnv, ...CHILD_COVERAGE, MAX_EVENT_LOOP_DELAY_MS: '0', DATABASE_URL: database, ...env }, {
    nodeArgs: [...nodeArgs, ...extraArgs], unset
  })
  t.teardown(async () => {
    if (server.child.exitCode !== null || server.child.signalCode !== null) return
    server.child.kill('SIGKILL')
    await once(server.child, 'exit')
  })
  return server
}

/**
 * What `npm start` runs, once dist/ is a build of the current sources: rebuilt here when
 * stale, as `npm start` itself would, but before a test's clock for the start begins (a
 * build takes longer than a start may), and one test file at a time. The build runs without
 * coverage: it is not what a test tests, and the service it starts to make the code cache
 * runs the bundle, whose node_modules sources node-tap on Node 24 would count as ours.
 */
export async function builtServer (): Promise<ReturnType<typeof npmStart>> {
  await ensureFreshBuild(undefined, { env: { ...process.env, ...WITHOUT_COVERAGE } })
  return npmStart()
}

const run = promisify(execFile)

/** Runs one of scripts/ as `npm run` would, resolving with its output, rejecting on a non-zero exit. */
export function runScript (script: string, args: string[], env: Record<string, string>) {
  return run(process.execPath, ['--import', 'tsx', script, ...args], { cwd: root, env: { ...CHILD_ENV, ...env } })
}

export interface ScriptResult { code: number, stdout: string, stderr: string }

/** Runs one of scripts/ as `runScript` does, resolving with its exit code and output, whatever the code. */
export function scriptResult (script: string, args: string[], env: Record<string, string>): Promise<ScriptResult> {
  return runScript(script, args, env).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    ({ code, stdout, stderr }: ScriptResult) => ({ code, stdout, stderr }))
}

/** `npm run keys` on a database, resolving with its output, rejecting on a non-zero exit. */
export function keys (databaseUrl: string, ...args: string[]) {
  return runScript('scripts/keys.ts', args, { DATABASE_URL: databaseUrl })
}

/** `npm run keys` expected to fail: its exit code and output. */
export function keysFailure (databaseUrl: string, ...args: string[]) {
  return scriptResult('scripts/keys.ts', args, { DATABASE_URL: databaseUrl })
}

/**
 * Why a test that runs `tools` (`bash`, `curl`) for `purpose` is skipped: a sentence when one
 * is missing, false when all are here. Required, not skipped, with PETSTORE_REQUIRE_SERVICES=1.
 */
export function skipWithout (tools: string[], purpose: string): string | false {
  const missing = tools.filter((tool) => spawnSync(tool, ['--version']).error !== undefined)
  if (missing.length === 0) return false
  if (process.env.PETSTORE_REQUIRE_SERVICES === '1') throw new Error(`${missing.join(' and ')} required (PETSTORE_REQUIRE_SERVICES=1) but not found`)
  return `no ${missing.join(' or ')} on this machine (apt-get install ${missing.join(' ')}) to ${purpose}`
}

/** A temporary folder for one test, removed afterwards. */
export function tempDir (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-test-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

export interface Outcome { requestId: string, status?: number, body?: string, error?: string }

/** POSTs a pet named `requestId` (also sent as X-Request-Id); never rejects. */
export function postPet (port: number, agent: Agent, key: string, requestId: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request({
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/v1/pets',
      agent,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': requestId }
    }, (res) => {
      let text = ''
      res.on('data', (chunk) => { text += chunk })
      res.on('end', () => resolve({ requestId, status: res.statusCode, body: text }))
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ requestId, error: error.code ?? error.message }))
    })
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ requestId, error: error.code ?? error.message }))
    req.end(JSON.stringify({ name: requestId, categoryId: 1 }))
  })
}

export interface CreateStream {
  /** Every answer so far, in the order they came, with the time each came (`at`, ms since the epoch). */
  outcomes: Array<Outcome & { at: number }>
  /** Sends no more requests; resolves once every connection has had its last answer. */
  stop: () => Promise<void>
  /** Resolves once every connection has stopped, by `stop()` or by an error that ends it. */
  done: Promise<void>
}

/**
 * Creates pets on the server at `port` from `connections` keep-alive connections at once, one
 * request at a time on each (at most 10,000), named `PREFIXwN-rI` after the connection and
 * the request, until `stop()` or, on a connection, an error that `endsOn` accepts (any error,
 * unless told otherwise). `onOutcome` sees each answer as it comes.
 */
export function streamCreates (port: number, key: string, { connections = 4, prefix = '', endsOn = () => true, onOutcome }: {
  connections?: number, prefix?: string, endsOn?: (error: string) => boolean, onOutcome?: (outcome: Outcome) => void
} = {}): CreateStream {
  const outcomes: Array<Outcome & { at: number }> = []
  let running = true
  const done = Promise.all(Array.from({ length: connections }, async (_, connection) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    // `running` is cleared by stop(), between awaits.
    // eslint-disable-next-line no-unmodified-loop-condition
    for (let i = 0; running && i < 10_000; i++) {
      const outcome = { ...await postPet(port, agent, key, `${prefix}w${connection}-r${i}`), at: Date.now() }
      outcomes.push(outcome)
      onOutcome?.(outcome)
      if (outcome.error !== undefined && endsOn(outcome.error)) break
    }
    agent.destroy()
  })).then(() => {})
  return { outcomes, stop: () => { running = false; return done }, done }
}

/** Whether a TCP connection to `host:port` is accepted: 'connected', or the error's code (ECONNREFUSED). */
export function tryConnect (port: number, host: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, host)
    socket.once('connect', () => { socket.destroy(); resolve('connected') })
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })
}
