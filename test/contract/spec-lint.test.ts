/**
 * The OpenAPI document passes Redocly's recommended rules and Spectral's `spectral:oas`
 * ruleset with no error and no warning (see redocly.yaml and .spectral.yaml for the rules turned off, and why).
 */
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import t from 'tap'

const cwd = new URL('../..', import.meta.url)
const bin = (name: string) => new URL(`../../node_modules/.bin/${name}`, import.meta.url).pathname
const env = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }
const execute = promisify(execFile)
/** stdout whatever the exit code: a linter that finds problems exits non-zero. */
const run = (file: string, args: string[]) =>
  execute(file, args, { cwd, env }).catch((error: { stdout: string }) => ({ stdout: error.stdout }))

t.test('Redocly recommended: no problems', async (t) => {
  const { stdout } = await run(bin('redocly'), ['lint', '--format=json', 'spec/openapi.yaml'])
  const report = JSON.parse(stdout)
  t.same(report.problems, [])
  t.same(report.totals, { errors: 0, warnings: 0, ignored: 0 })
})

t.test('Spectral spectral:oas: no problems', async (t) => {
  const { stdout } = await run(bin('spectral'), ['lint', '--format=json', '--quiet', 'spec/openapi.yaml'])
  t.same(JSON.parse(stdout.slice(stdout.indexOf('['))), [])
})
