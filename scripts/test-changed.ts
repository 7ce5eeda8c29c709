/**
 * `npm run test:changed`: the tests whose outcome the working tree may have changed since
 * they last ran, chosen from what each one ran then (./lib/test-deps/select.ts); for the loop
 * while working. `npm test` stays the whole suite, and `.ci/run` runs it. The tests run with
 * coverage, so each run brings their record up to date. The nearest run first
 * (./lib/test-deps/nearest.ts), the others only once they pass; `--nearest` runs those alone.
 * Extra arguments go to tap (`npm run test:changed -- --grep=ETag`); `--list` only lists
 * them, with why.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { isNearest, testFoldersBy } from './lib/test-deps/nearest.ts'
import { projectFiles } from './lib/test-deps/project-files.ts'
import { narrowerReach, type Place } from './lib/test-deps/reach.ts'
import { whyRun } from './lib/test-deps/select.ts'
import { Store } from './lib/test-deps/store.ts'

const root = process.cwd()
const store = new Store(root)
const listOnly = process.argv.includes('--list')
const nearestOnly = process.argv.includes('--nearest')
const tapArguments = process.argv.slice(2).filter((argument) => argument !== '--list' && argument !== '--nearest')

const files = projectFiles(root)
const tests = [...files.keys()].filter((path) => /^(client\/)?test\/.*\.test\.ts$/.test(path)).sort()
const sources = new Map<string, string>()
const trees = new Map<string, Record<string, string>>()
const index = store.readIndex()
const narrowed = new Map<string, Place[] | undefined>()
/** A kept text by its hash; undefined where it was not kept (a record older than the rule keeping it). */
const kept = (hash: string | undefined) => {
  try {
    return hash === undefined ? undefined : project.source(hash)
  } catch {
    return undefined
  }
}
const project = {
  loaded: new Set(Object.values(index.tests).flatMap((record) => Object.keys(record.files))),
  files,
  text: (path: string) => readFileSync(path, 'utf8'),
  source: (hash: string) => sources.get(hash) ?? sources.set(hash, store.source(hash)).get(hash)!,
  tree: (hash: string) => trees.get(hash) ?? trees.set(hash, store.tree(hash)).get(hash)!,
  narrower: (path: string, thenHashOf: (path: string) => string | undefined) => {
    const key = [path, 'spec/openapi.yaml', 'generated/migrations.ts'].map(thenHashOf).join(' ') + path
    if (!narrowed.has(key)) narrowed.set(key, narrowerReach(path, (file) => kept(thenHashOf(file)), (file) => files.has(file) ? readFileSync(file, 'utf8') : undefined))
    return narrowed.get(key)
  }
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
// What changed since the runs the chosen tests' records come from.
const changed = new Set<string>()
for (const tree of new Set(chosen.flatMap(({ test }) => index.tests[test]?.tree ?? []))) {
  const then = project.tree(tree)
  for (const [path, hash] of files) if (then[path] !== hash) changed.add(path)
  for (const path of Object.keys(then)) if (!files.has(path)) changed.add(path)
}
const folders = new Set([...changed].flatMap(testFoldersBy))
const nearest = chosen.filter(({ test, why }) => isNearest(test, why, folders))
const others = chosen.filter((entry) => !nearest.includes(entry))

for (const { test, why } of [...nearest, ...others]) console.log(`${test}: ${why}`)
if (listOnly) process.exit(0)
/** Runs `batch` with tap, returning its exit status. */
const run = (batch: typeof chosen) => spawnSync('npx', ['tap', '--allow-incomplete-coverage', '--coverage-report=text-summary', ...batch.map(({ test }) => test), ...tapArguments], { stdio: 'inherit' }).status ?? 1
if (nearestOnly && nearest.length === 0) {
  console.log('None of them sits by what changed; run them all with `npm run test:changed`.')
  process.exit(0)
}
if (nearest.length === 0 || others.length === 0) {
  console.log(`Running ${chosen.length} of ${tests.length} test files.`)
  process.exit(run(chosen))
}
console.log(`Running the ${nearest.length} nearest of the ${chosen.length} chosen (of ${tests.length} test files) first${nearestOnly ? ', and only them' : ''}.`)
const status = run(nearest)
if (status !== 0 || nearestOnly) process.exit(status)
console.log(`The nearest passed; running the other ${others.length}.`)
process.exit(run(others))
