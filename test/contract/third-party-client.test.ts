/**
 * A client generated from the served document by a third-party generator compiles, strict.
 * Tools follow JSON references less far than JSON Schema allows: a `$ref` into another
 * schema's properties (`#/components/schemas/NewPet/properties/name`) is valid, yet
 * @hey-api/openapi-ts typed the field it named with a name it never declared, and the client
 * did not compile. The document keeps every `$ref` to a whole component (the
 * `ref-to-whole-component` rule of .spectral.yaml); this proves it on a widely used generator.
 *
 * @hey-api/openapi-ts is pinned to 0.85.2, the newest release that runs on every Node the
 * service supports (^20.16.0): the releases after it need Node 20.19. It runs offline, on a
 * file, with its defaults (the types, the SDK and its own fetch client, written beside them),
 * from its command line, as a consumer runs it; the client is checked as a bundler's project
 * checks it (`skipLibCheck`, as `tsc --init` writes it: the client is checked, not the DOM's
 * declarations, which halves the time).
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { apiDocument } from '../../src/contract/document.ts'
import { build } from '../helpers/app.ts'
import { CONSUMER_ENV, run, typeCheck } from '../helpers/consumer.ts'
import { tempDir } from '../helpers/process.ts'

const generator = new URL('../../node_modules/.bin/openapi-ts', import.meta.url).pathname
const BUNDLER_PROJECT = { module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], skipLibCheck: true }

t.test('a client @hey-api/openapi-ts generates from the served /openapi.json compiles, strict', async (t) => {
  const app = await build(t)
  const served = await app.inject({ url: '/openapi.json' })
  t.equal(served.statusCode, 200)
  const dir = tempDir(t)
  writeFileSync(join(dir, 'openapi.json'), served.body)

  // Run in the consumer's folder, where it finds no configuration file of this project's.
  await run(generator, ['--input', 'openapi.json', '--output', 'client', '--no-log-file'], { cwd: dir, env: CONSUMER_ENV })
  const sdk = readFileSync(join(dir, 'client', 'sdk.gen.ts'), 'utf8')
  for (const operationId of apiDocument.operations.keys()) t.match(sdk, `export const ${operationId} = `, `the SDK has ${operationId}`)

  t.equal(await typeCheck(dir, 'client/index.ts', BUNDLER_PROJECT), '', 'the client type-checks (tsc prints nothing)')
})
