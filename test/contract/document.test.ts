/**
 * The build parses the document once, into JSON beside the YAML (scripts/build-spec.ts);
 * the built service reads that instead of the YAML, and must see the very same document.
 */
import { copyFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import t from 'tap'
import { ApiDocument, apiDocument, specPath } from '../../src/contract/document.ts'
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
