// @ts-check
/**
 * Makes sure dist/ is a build of the sources beside it, before `npm start` serves it
 * (scripts/start.js; the tests that run the build call it too, before their clocks start).
 *
 * - No sources beside dist/ (the service installed from its tarball, which carries dist/
 *   alone): nothing to compare with, so the build is taken as it is.
 * - dist/ built from these sources (its stamp, scripts/lib/build-stamp.js): nothing to do.
 * - Otherwise, with the build's tools installed, `npm run build` rebuilds it, one start at
 *   a time (a lock file in dist/); without them (an install without dev dependencies), an
 *   error whose message names `npm run build`.
 *
 * Plain JavaScript, for the reason build-stamp.js gives.
 */
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { setTimeout as sleep } from 'node:timers/promises'
import { projectRoot, staleness } from './build-stamp.js'

/** The packages `npm run build` runs: tsc, tsx, and esbuild (the bundles). */
export const BUILD_TOOLS = ['typescript', 'tsx', 'esbuild']

/**
 * @typedef {object} FreshBuildOptions
 * @property {(line: string) => void} [log] where the progress lines go (stderr: stdout is the service's log stream)
 * @property {NodeJS.ProcessEnv} [env] the build's environment (this process's by default)
 */

/**
 * Resolves once dist/ is fresh, rebuilding it if it must; rejects with the reason it cannot
 * be, in one line.
 * @param {URL} [root]
 * @param {FreshBuildOptions} [options]
 */
export async function ensureFreshBuild (root = projectRoot(), { log = (line) => process.stderr.write(`${line}\n`), env = process.env } = {}) {
  if (!existsSync(new URL('src/', root))) return
  const reason = staleness(root)
  if (reason === undefined) return
  const missing = missingTools(root)
  if (missing.length > 0) {
    throw new Error(`${reason}; run \`npm run build\`, which needs the dev dependencies (${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not installed)`)
  }
  const release = await lock(root, log)
  try {
    // Another start may have rebuilt it while this one waited.
    const stillStale = staleness(root)
    if (stillStale === undefined) return
    log(`${stillStale}: rebuilding it with \`npm run build\``)
    const failure = await npmRunBuild(root, env)
    if (failure !== undefined) throw new Error(`${stillStale}, and \`npm run build\` ${failure}`)
  } finally {
    release()
  }
}

/** The build tools that cannot be found from the project, as `npm run build` would look for them. */
function missingTools (/** @type {URL} */ root) {
  const require = createRequire(new URL('package.json', root))
  return BUILD_TOOLS.filter((name) => {
    try {
      require.resolve(`${name}/package.json`)
      return false
    } catch {
      return true
    }
  })
}

/**
 * Takes dist/.build.lock, waiting while a live process holds it; resolves with its release.
 * A lock left by a process that died is taken over. (Two starts that find the same dead
 * holder at the same instant could both take it; both would then build.)
 * @param {URL} root
 * @param {(line: string) => void} log
 * @returns {Promise<() => void>}
 */
async function lock (root, log) {
  const file = new URL('dist/.build.lock', root)
  mkdirSync(new URL('dist/', root), { recursive: true })
  let told = false
  for (;;) {
    try {
      writeFileSync(file, String(process.pid), { flag: 'wx' })
      return () => rmSync(file, { force: true })
    } catch (error) {
      if (/** @type {NodeJS.ErrnoException} */ (error).code !== 'EEXIST') throw error
    }
    let holder
    try {
      holder = Number(readFileSync(file, 'utf8'))
    } catch {
      continue // released meanwhile
    }
    // An empty file is a lock being taken this instant.
    if (holder > 0 && !alive(holder)) {
      rmSync(file, { force: true })
      continue
    }
    if (!told) log(`waiting for the rebuild another start is making (process ${holder})`)
    told = true
    await sleep(100)
  }
}

function alive (/** @type {number} */ pid) {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return /** @type {NodeJS.ErrnoException} */ (error).code !== 'ESRCH'
  }
}

/**
 * Runs `npm run build` in the project, its output on stderr; resolves with how it failed, or
 * undefined. SIGTERM and SIGINT meanwhile are passed on to it, so stopping a start stops its
 * build too (then the build has failed, and the start with it).
 * @param {URL} root
 * @param {NodeJS.ProcessEnv} env
 * @returns {Promise<string | undefined>}
 */
function npmRunBuild (root, env) {
  return new Promise((resolve) => {
    const build = spawn('npm', ['run', 'build'], { cwd: root, env, stdio: ['ignore', 2, 2] })
    /** @param {NodeJS.Signals} signal */
    const forward = (signal) => { build.kill(signal) }
    process.on('SIGTERM', forward)
    process.on('SIGINT', forward)
    /** @param {string | undefined} failure */
    const done = (failure) => {
      process.off('SIGTERM', forward)
      process.off('SIGINT', forward)
      resolve(failure)
    }
    build.once('error', (error) => done(`could not run: ${error.message}`))
    build.once('exit', (code, signal) => done(code === 0 ? undefined : signal !== null ? `was stopped by ${signal}` : `failed (exit code ${code})`))
  })
}
