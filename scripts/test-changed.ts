/**
 * `npm run test:changed`: the tests whose outcome the working tree may have changed since
 * they last ran, chosen from what each one ran then (./lib/test-deps/select.ts); for the loop
 * while working. `npm test` stays the whole suite, and `.ci/run` runs it. The tests run with
 * coverage, so each run brings their record up to date. Extra arguments go to tap
 * (`npm run test:changed -- --grep=ETag`); `--list` only lists them, with why.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { projectFiles } from './lib/test-deps/project-files.ts'
import { whyRun } from './lib/test-deps/select.ts'
import { Store } from './lib/test-deps/store.ts'

const root = process.cwd()
const store = new Store(root)
const listOnly = process.argv.includes('--list')
const tapArguments = process.argv.slice(2).filter((argument) => argument !== '--list')

const files = projectFiles(root)
const tests = [...files.keys()].filter((path) => /^(client\/)?test\/.*\.test\.ts$/.test(path)).sort()
const sources = new Map<string, string>()
const trees = new Map<string, Record<string, string>>()
const index = store.readIndex()
const project = {
  loaded: new Set(Object.values(index.tests).flatMap((record) => Object.keys(record.files))),
  files,
  text: (path: string) => readFileSync(path, 'utf8'),
  source: (hash: string) => sources.get(hash) ?? sources.set(hash, store.source(hash)).get(hash)!,
  tree: (hash: string) => trees.get(hash) ?? trees.set(hash, store.tree(hash)).get(hash)!
}

if (!store.exists) {
  console.log('No record yet of what each test runs: running them all (as npm test does), which records it.')
}
const chosen = tests.flatMap((test) => {
  const why = whyRun(test, index.tests[test], project)
  return why === undefined ? [] : [{ test, why }]
})

if (chosen.length === 0) {
  console.log('Nothing changed that a test ran since it last passed.')
  process.exit(0)
}
for (const { test, why } of chosen) console.log(`${test}: ${why}`)
if (listOnly) process.exit(0)
console.log(`Running ${chosen.length} of ${tests.length} test files.`)
const run = spawnSync('npx', ['tap', '--allow-incomplete-coverage', '--coverage-report=text-summary', ...chosen.map(({ test }) => test), ...tapArguments], { stdio: 'inherit' })
process.exit(run.status ?? 1)
