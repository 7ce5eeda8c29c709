/**
 * The build parses the document once, into JSON beside the YAML, with the integers a
 * double cannot hold listed in a third file (scripts/build-spec.ts); the built service
 * reads those instead of the YAML, and must see the very same document.
 */
import { copyFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import t from 'tap'
import { ApiDocument, apiDocument, BIG_INTEGERS_SUFFIX, bigIntegers, specPath, type JsonObject } from '../../src/contract/document.ts'
import { tempDir } from '../helpers/process.ts'

t.test('the document read from its built JSON is the one parsed from the YAML', async (t) => {
  const dir = tempDir(t)
  copyFileSync(specPath, join(dir, 'openapi.yaml'))
  writeFileSync(join(dir, 'openapi.json'), apiDocument.json)
  const built = ApiDocument.read(pathToFileURL(join(dir, 'openapi.yaml')))
  t.same(built.document, apiDocument.document)
  t.equal(built.json, apiDocument.json, 'the JSON served keeps every digit')
  t.equal(built.yaml, apiDocument.yaml, 'the YAML is served as written')
  t.match(built.json, '9223372036854775807', 'the int64 maximum is exact')
  t.same([...built.operations.keys()], [...apiDocument.operations.keys()])
})

t.test('without the JSON, the YAML is parsed', async (t) => {
  const dir = tempDir(t)
  copyFileSync(specPath, join(dir, 'openapi.yaml'))
  t.same(ApiDocument.read(pathToFileURL(join(dir, 'openapi.yaml'))).document, apiDocument.document)
})

/** The int64 maximum of the pet's id, as the document holds it. */
const petIdMaximum = (document: JsonObject) =>
  ((((document.components as JsonObject).schemas as JsonObject).Pet as JsonObject).properties as JsonObject).id as JsonObject

t.test('with the list of its large integers, the JSON is parsed natively and they are put back exact', async (t) => {
  const dir = tempDir(t)
  copyFileSync(specPath, join(dir, 'openapi.yaml'))
  writeFileSync(join(dir, 'openapi.json'), apiDocument.json)
  writeFileSync(join(dir, `openapi${BIG_INTEGERS_SUFFIX}`), JSON.stringify(bigIntegers(apiDocument.json, apiDocument.document)))
  const built = ApiDocument.read(pathToFileURL(join(dir, 'openapi.yaml')))
  t.strictSame(built.document, apiDocument.document)
  t.equal(petIdMaximum(built.document).maximum, 9223372036854775807n)
  t.equal(built.json, apiDocument.json)
})

t.test('a list made for another JSON is not used', async (t) => {
  const dir = tempDir(t)
  copyFileSync(specPath, join(dir, 'openapi.yaml'))
  writeFileSync(join(dir, 'openapi.json'), apiDocument.json)
  const other = apiDocument.json.replace('"maximum":9223372036854775807', '"maximum":9223372036854775806')
  t.not(other, apiDocument.json)
  writeFileSync(join(dir, `openapi${BIG_INTEGERS_SUFFIX}`), JSON.stringify({ ...bigIntegers(other, apiDocument.document), integers: [] }))
  const built = ApiDocument.read(pathToFileURL(join(dir, 'openapi.yaml')))
  t.strictSame(built.document, apiDocument.document, 'parsed digit for digit instead')
  t.equal(petIdMaximum(built.document).maximum, 9223372036854775807n)
})
