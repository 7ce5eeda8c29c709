/**
 * `npm run test:changed`: the tests of what the working tree changed since the last commit
 * (./lib/changed-tests.ts), for the loop while working; `npm test` stays the whole suite,
 * and `.ci/run` runs it. Extra arguments go to tap (`npm run test:changed -- --grep=ETag`).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { testsFor } from './lib/changed-tests.ts'

const git = (...args: string[]) => execFileSync('git', args, { encoding: 'utf8' }).split('\n').filter(Boolean)
const changed = [...new Set([...git('diff', '--name-only', 'HEAD'), ...git('ls-files', '--others', '--exclude-standard')])]
const scriptTests = readdirSync('test/scripts').map((name) => `test/scripts/${name}`)

const tests = testsFor(changed, existsSync, scriptTests)
if ('everything' in tests) {
  console.error(`${tests.everything.join(', ')} may touch any test: run npm test`)
  process.exit(1)
}
if (tests.run.length === 0) {
  console.log('Nothing changed that a test covers.')
  process.exit(0)
}
console.log(`Running ${tests.run.join(' ')}`)
const run = spawnSync('npx', ['tap', '--disable-coverage', ...tests.run, ...process.argv.slice(2)], { stdio: 'inherit' })
process.exit(run.status ?? 1)
