/**
 * The second half of `npm run build` (after `tsc`), for the files tsc does not emit:
 * - the OpenAPI document into dist/spec/, as written (served at /openapi.yaml) and already
 *   parsed, as JSON, so the built service starts without parsing YAML, with the integers a
 *   double cannot hold listed beside it (see ApiDocument.read);
 * - the docs page's assets (its favicon) beside the built src/features/docs/plugin.js, which reads
 *   them relative to itself.
 */
import { cpSync, mkdirSync, writeFileSync } from 'node:fs'
import { apiDocument, BIG_INTEGERS_SUFFIX, bigIntegers } from '../src/contract/document.ts'

const out = new URL('../dist/spec/', import.meta.url)
mkdirSync(out, { recursive: true })
writeFileSync(new URL('openapi.yaml', out), apiDocument.yaml)
writeFileSync(new URL('openapi.json', out), apiDocument.json)
writeFileSync(new URL(`openapi${BIG_INTEGERS_SUFFIX}`, out), JSON.stringify(bigIntegers(apiDocument.json, apiDocument.document)))

cpSync(new URL('../src/features/docs/assets/', import.meta.url), new URL('../dist/src/features/docs/assets/', import.meta.url), { recursive: true })
