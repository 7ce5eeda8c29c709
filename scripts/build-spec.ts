/**
 * The second half of `npm run build` (after `tsc`): the OpenAPI document into dist/spec/,
 * as written (served at /openapi.yaml) and already parsed, as JSON, so the built service
 * starts without parsing YAML (see ApiDocument.read).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { apiDocument } from '../src/openapi/document.ts'

const out = new URL('../dist/spec/', import.meta.url)
mkdirSync(out, { recursive: true })
writeFileSync(new URL('openapi.yaml', out), apiDocument.yaml)
writeFileSync(new URL('openapi.json', out), apiDocument.json)
