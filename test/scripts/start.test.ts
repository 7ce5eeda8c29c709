/**
 * `npm start` after the sources changed, in a copy of the project made for each run: the
 * real npm runs the real start script. The document edited since the build is served
 * edited (the start rebuilt dist/); nothing changed, nothing is built; and without the
 * build's tools (an install without dev dependencies) a stale or missing build stops the
 * start with exit 1 and a line naming `npm run build`.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import t, { type Test } from 'tap'
import { INPUTS, STAMP, staleness } from '../../scripts/lib/build-stamp.js'
import { until } from '../helpers/until.ts'
import { CHILD_ENV, tempDir } from '../helpers/process.ts'

const KEY = 'start-script-test-key-not-secret'
const root = fileURLToPath(new URL('../../', import.meta.url))
// npm run's own variables (npm_config_*, npm_package_*) would describe this project, not the copy.
const env = Object.fromEntries(Object.entries(CHILD_ENV).filter(([name]) => !name.toLowerCase().startsWith('npm_')))
const SUMMARY = /^ {2}summary: .*$/m

/**
 * What `npm run build` reads (build-stamp.js's INPUTS), the start script, the client
 * workspace the build builds first, and the build in dist/ as it is: an older build,
 * or none, for the first start to rebuild.
 */
function copyProject (dir: string): string {
  const project = join(dir, 'project')
  for (const input of [...INPUTS, 'scripts/start.js', 'scripts/lib']) {
    if (existsSync(join(root, input))) cpSync(join(root, input), join(project, input), { recursive: true })
  }
  cpSync(join(root, 'client'), join(project, 'client'), {
    recursive: true, filter: (source) => !/\/client\/(dist|test|node_modules)$/.test(source)
  })
  if (existsSync(join(root, 'dist'))) {
    cpSync(join(root, 'dist'), join(project, 'dist'), { recursive: true, filter: (source) => !source.endsWith('.build.lock') })
  }
  symlinkSync(realpathSync(join(root, 'node_modules')), join(project, 'node_modules'))
  return project
}

/** The project's node_modules/ as an install without typescript leaves it. */
function withoutTypescript (project: string) {
  const real = realpathSync(join(project, 'node_modules'))
  rmSync(join(project, 'node_modules'))
  mkdirSync(join(project, 'node_modules'))
  for (const name of readdirSync(real).filter((name) => name !== 'typescript')) {
    symlinkSync(join(real, name), join(project, 'node_modules', name))
  }
}

function editSummary (project: string, summary: string) {
  const file = join(project, 'spec/openapi.yaml')
  writeFileSync(file, readFileSync(file, 'utf8').replace(SUMMARY, `  summary: ${summary}`))
}

/** `npm start` in the project, in a process group of its own, as a service manager runs it. */
function npmStart (t: Test, project: string) {
  const npm = spawn('npm', ['start'], {
    cwd: project,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...env, PORT: '0', DATABASE_URL: join(project, 'petstore.db'), PETSTORE_API_KEYS: KEY, LOG_FORMAT: 'json', MAX_EVENT_LOOP_DELAY_MS: '0'
    }
  })
  t.teardown(() => {
    try { process.kill(-npm.pid!, 'SIGKILL') } catch {}
  })
  const exit = once(npm, 'exit')
  let stdout = ''
  let stderr = ''
  npm.stdout!.on('data', (chunk: Buffer) => { stdout += chunk })
  npm.stderr!.on('data', (chunk: Buffer) => { stderr += chunk })
  return { npm, exit, stdout: () => stdout, stderr: () => stderr }
}

const ADDRESS = / on (http:\/\/127\.0\.0\.1:\d+)\/v1/

/** Starts the project with `npm start`, and resolves with the served document's summary. */
async function servedSummary (t: Test, project: string, ceilingMs = 20_000) {
  const started = npmStart(t, project)
  await until(() => ADDRESS.test(started.stdout()) || started.npm.exitCode !== null, 'the service to listen', ceilingMs)
  if (started.npm.exitCode !== null) throw new Error(`npm start exited with ${started.npm.exitCode}:\n${started.stdout()}${started.stderr()}`)
  const base = ADDRESS.exec(started.stdout())![1]!
  const document = await (await fetch(`${base}/docs/json`)).json() as { info: { summary: string } }
  return { ...started, base, summary: document.info.summary }
}

async function stop (started: ReturnType<typeof npmStart>) {
  process.kill(started.npm.pid!, 'SIGTERM')
  return await started.exit
}

const project = copyProject(tempDir(t))
const projectUrl = pathToFileURL(`${project}/`)

t.test('the document edited since the build: npm start rebuilds dist/, then serves the edit', async (t) => {
  editSummary(project, 'Edited since the last build.')
  t.not(staleness(projectUrl), undefined, 'the copy\'s build is stale')

  // A whole build, on a machine busy with other tests.
  const started = await servedSummary(t, project, 100_000)
  t.equal(started.summary, 'Edited since the last build.', 'the served document has the edit')
  t.match(started.stderr(), /^dist\/ (was built from older sources \(spec\/openapi\.yaml( and \d+ more files?)? changed\)|holds no complete build): rebuilding it with `npm run build`$/m,
    'the start says why it builds')
  t.match(started.stderr(), '> petstore-service@1.0.0 build', 'the build\'s output shows, on stderr')
  t.notMatch(started.stdout(), '> petstore-service@1.0.0 build', 'stdout stays the log stream')
  t.equal(staleness(projectUrl), undefined, 'dist/ is now the build of these sources')

  // The bundle holds Swagger UI's plugin, which serves its page's files from its own folder.
  const asset = await fetch(`${started.base}/docs/static/swagger-ui.css`)
  t.equal(asset.status, 200, 'Swagger UI\'s stylesheet, from its package in node_modules')
  t.match(asset.headers.get('content-type'), /^text\/css/)
  t.ok((await asset.text()).includes('.swagger-ui'), 'the stylesheet itself')
  // And pino, which writes each request's line.
  await until(() => /"msg":"request completed"/.test(started.stdout()), 'the request\'s log line')
  t.same(await stop(started), [0, null], 'SIGTERM ends it with 0')
})

t.test('nothing changed since the build: npm start serves it as it is, building nothing', async (t) => {
  const bundle = statSync(join(project, 'dist/bundle.cjs')).mtimeMs
  const stamp = readFileSync(join(project, STAMP), 'utf8')

  const started = await servedSummary(t, project)
  t.equal(started.summary, 'Edited since the last build.')
  t.equal(started.stderr().replace(/^npm warn .*\n/gm, ''), '', 'nothing on stderr: no build ran')
  t.equal(statSync(join(project, 'dist/bundle.cjs')).mtimeMs, bundle, 'the bundle was not written again')
  t.equal(readFileSync(join(project, STAMP), 'utf8'), stamp, 'nor the stamp')
  t.same(await stop(started), [0, null])
})

t.test('without typescript (no dev dependencies), a stale or missing build stops npm start with exit 1 naming npm run build', async (t) => {
  withoutTypescript(project)
  editSummary(project, 'Edited again, with no way to build.')
  const bundle = readFileSync(join(project, 'dist/bundle.cjs'))

  const stale = npmStart(t, project)
  t.same(await stale.exit, [1, null], 'exit 1')
  t.equal(stale.stderr().replace(/^npm warn .*\n/gm, ''),
    'Cannot start: dist/ was built from older sources (spec/openapi.yaml changed); run `npm run build`, which needs the dev dependencies (typescript is not installed)\n',
    'one line, naming npm run build')
  t.equal(stale.stdout().replace(/^(> .*)?\n/gm, ''), '', 'nothing served, nothing logged')
  t.same(readFileSync(join(project, 'dist/bundle.cjs')), bundle, 'the old build is left as it was')

  rmSync(join(project, 'dist'), { recursive: true })
  const missing = npmStart(t, project)
  t.same(await missing.exit, [1, null], 'exit 1')
  t.equal(missing.stderr().replace(/^npm warn .*\n/gm, ''),
    'Cannot start: dist/ holds no complete build; run `npm run build`, which needs the dev dependencies (typescript is not installed)\n')
  t.notOk(existsSync(join(project, 'dist/server.js')), 'nothing was built')
})
