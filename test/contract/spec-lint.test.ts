/**
 * The OpenAPI document passes Redocly's recommended rules and Spectral's `spectral:oas`
 * ruleset with no error and no warning (see redocly.yaml and .spectral.yaml for the rules turned off, and why),
 * and the project's own rule there: every `$ref` names a whole component.
 */
import { execFile } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { parse, stringify } from 'yaml'
import { apiDocument } from '../../src/contract/document.ts'
import { tempDir } from '../helpers/process.ts'

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

t.test('Spectral: a $ref to a part of a component is an error, whatever the kind of component', async (t) => {
  const document = parse(apiDocument.yaml, { intAsBigInt: true })
  // The pointer PetPatch once used, and one into a parameter.
  document.components.schemas.PetPatch.properties.name = { $ref: '#/components/schemas/NewPet/properties/name' }
  document.components.parameters.OrderId.schema = { $ref: '#/components/parameters/PetId/schema' }
  const file = join(tempDir(t), 'openapi.yaml')
  writeFileSync(file, stringify(document))
  const { stdout } = await run(bin('spectral'), ['lint', '--format=json', '--quiet', file])
  const problems = JSON.parse(stdout.slice(stdout.indexOf('['))) as Array<{ code: string, message: string, path: string[], severity: number }>
  t.same(problems.map(({ code, message, path, severity }) => ({ code, message, path: path.join('.'), severity })), [
    {
      code: 'ref-to-whole-component',
      message: '$ref #/components/parameters/PetId/schema does not name a whole component: give what it points to a component of its own',
      path: 'components.parameters.OrderId.schema.$ref',
      severity: 0
    },
    {
      code: 'ref-to-whole-component',
      message: '$ref #/components/schemas/NewPet/properties/name does not name a whole component: give what it points to a component of its own',
      path: 'components.schemas.PetPatch.properties.name.$ref',
      severity: 0
    }
  ])
})
