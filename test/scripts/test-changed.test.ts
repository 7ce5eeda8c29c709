/**
 * npm run test:changed runs a test again when an edit reaches code it ran: what a process
 * never ran comes from V8's coverage through the source map, and an edit inside it leaves
 * the test alone; anything else a test loaded or reads, edited, runs it again.
 */
import { execFile } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import t from 'tap'
import { neverRun, type Span } from '../../scripts/lib/test-deps/never-run.ts'
import { firstRunLineChanged, whyRun, type Project } from '../../scripts/lib/test-deps/select.ts'
import type { TestRecord } from '../../scripts/lib/test-deps/store.ts'
import { tempDir } from '../helpers/process.ts'

const fixture = fileURLToPath(new URL('../fixtures/partly-run.ts', import.meta.url))
const fixtureText = readFileSync(fixture, 'utf8')
const lines = fixtureText.split('\n')
/** The 1-based line of `text` in the fixture. */
const lineOf = (text: string) => lines.findIndex((line) => line.includes(text)) + 1

t.test('what a process never ran, in the lines of the TypeScript it loaded', async (t) => {
  // Node's own coverage; node-tap, which follows every process a test starts, is asked not
  // to take (and stop) it first.
  const coverage = tempDir(t)
  await promisify(execFile)(process.execPath, ['--import', 'tsx', fixture], { env: { PATH: process.env.PATH, _TAPJS_PROCESSINFO_COVERAGE_: '0', NODE_V8_COVERAGE: coverage } })
  // One file per thread; the loader's own thread ran none of the fixture.
  const taken = readdirSync(coverage).map((file) => JSON.parse(readFileSync(join(coverage, file), 'utf8')))
    .find((each) => each.result.some((entry: { url: string }) => entry.url.endsWith('partly-run.ts')))
  const script = taken.result.find((entry: { url: string }) => entry.url.endsWith('partly-run.ts'))
  const spans = neverRun(script, taken['source-map-cache'][script.url], () => { t.fail('the loader gives a map'); return [] })
  t.same([...spans.keys()], [fixture])
  t.same(spans.get(fixture), [
    [lineOf('if (input.value > 100)'), lineOf('if (input.value > 100)') + 2],
    [lineOf('export function neverCalled'), lineOf('return String(tripled)') + 1]
  ], 'the block never entered, and the function never called')
})

t.test('an edit inside code a process never ran leaves its test alone; one touching what ran does not', async (t) => {
  const start = lineOf('export function neverCalled')
  const end = start + 3
  const neverCalled: Span[][] = [[[start, end]]]
  const edit = (from: string, to: string) => fixtureText.replace(from, to)
  t.equal(firstRunLineChanged(fixtureText, edit('input.value * 3', 'input.value * 4'), neverCalled), undefined, 'a line inside')
  t.equal(firstRunLineChanged(fixtureText, edit('  return String(tripled)\n', '  return String(tripled)\n  // noted\n'), neverCalled), undefined, 'a line added before its end')
  t.equal(firstRunLineChanged(fixtureText, edit('(input: Input): string', '(input: Input): String'), neverCalled), start, 'its first line, where it is named')
  t.equal(firstRunLineChanged(fixtureText, edit('console.log(', 'console.info('), neverCalled), lineOf('console.log('), 'a line outside it')
  t.equal(firstRunLineChanged(fixtureText, `${fixtureText}\nexport const added = 1\n`, neverCalled), lines.length, 'a line added at the end')
  t.equal(firstRunLineChanged(fixtureText, edit('  const tripled', '}\nfoo()\nfunction again () {\n  const tripled'), neverCalled), undefined,
    'still inside, however it reads: the function it lies in was never entered')
  t.equal(firstRunLineChanged(fixtureText, edit('input.value * 3', 'input.value * 4'), [...neverCalled, []]), start + 1,
    'another process that ran it all')
  t.equal(firstRunLineChanged(fixtureText, edit('input.value * 3', 'input.value * 4'), [[]]), start + 1, 'a file coverage does not describe')
})

/** A project of a few files, with one test that loaded `a.ts` (never running its lines 3 to 5) and a fixture. */
function project (files: Record<string, string>, then: Record<string, string>): Project {
  return {
    loaded: new Set(['test/a.test.ts', 'src/a.ts', 'src/reader.ts', 'src/other.ts']),
    files: new Map(Object.entries(files).map(([path, text]) => [path, `hash of ${text}`])),
    text: (path) => files[path]!,
    source: (hash) => hash.replace(/^hash of /, ''),
    tree: () => Object.fromEntries(Object.entries(then).map(([path, text]) => [path, `hash of ${text}`]))
  }
}
const a = 'line 1\nline 2\nline 3\nline 4\nline 5\nline 6\n'
const test = 'reads "fixtures/data.json"\n'
const reader = 'reads "spec/doc.yaml", and every file but a README.md; src/other.ts\n'
const then = { 'test/a.test.ts': test, 'src/a.ts': a, 'src/reader.ts': reader, 'test/fixtures/data.json': '{}', 'spec/doc.yaml': 'a: 1', 'README.md': 'hello', 'docs/notes.md': 'notes' }
const record: TestRecord = {
  passed: true,
  tree: 'then',
  files: {
    'test/a.test.ts': { hash: `hash of ${test}`, neverRun: [[]] },
    'src/a.ts': { hash: `hash of ${a}`, neverRun: [[[2, 6]]] },
    'src/reader.ts': { hash: `hash of ${reader}`, neverRun: [[]] }
  }
}

t.test('why a test runs again, or not', async (t) => {
  t.equal(whyRun('test/a.test.ts', record, project(then, then)), undefined, 'nothing changed')
  t.equal(whyRun('test/a.test.ts', undefined, project(then, then)), 'no record of what it runs yet')
  t.equal(whyRun('test/a.test.ts', { ...record, passed: false }, project(then, then)), 'it failed when it last ran')
  t.equal(whyRun('test/a.test.ts', record, project({ ...then, 'src/a.ts': a.replace('line 4', 'line four') }, then)), undefined,
    'an edit of what it never ran')
  t.equal(whyRun('test/a.test.ts', record, project({ ...then, 'src/a.ts': a.replace('line 6', 'line six') }, then)), 'src/a.ts:6 changed')
  t.equal(whyRun('test/a.test.ts', record, project({ ...then, 'test/a.test.ts': `${test}more\n` }, then)), 'test/a.test.ts:2 changed', 'the test itself')
  const { 'src/a.ts': _gone, ...withoutA } = then
  t.equal(whyRun('test/a.test.ts', record, project(withoutA, then)), 'src/a.ts is gone')
  t.equal(whyRun('test/a.test.ts', record, project({ ...then, 'test/fixtures/data.json': '[]' }, then)),
    'test/fixtures/data.json changed, which test/a.test.ts names', 'a file it reads')
  const { 'test/fixtures/data.json': _data, ...withoutData } = then
  t.equal(whyRun('test/a.test.ts', record, project(withoutData, then)), 'test/fixtures/data.json is gone, which test/a.test.ts names')
  t.equal(whyRun('test/a.test.ts', record, project({ ...then, 'docs/notes.md': 'more notes', 'docs/new.md': 'new' }, then)), undefined,
    'files it neither loads nor names')
  t.equal(whyRun('test/a.test.ts', record, project({ ...then, 'package.json': '{}' }, then)), 'package.json changed, which every test reads')
  t.equal(whyRun('test/a.test.ts', record, project({ ...then, 'spec/doc.yaml': 'a: 2' }, then)), 'spec/doc.yaml changed, which src/reader.ts names',
    'code names what it reads by its path')
  t.equal(whyRun('test/a.test.ts', record, project({ ...then, 'README.md': 'hello again' }, then)), undefined,
    'a bare file name in code is as often one it leaves out')
  t.equal(whyRun('test/a.test.ts', record, project({ ...then, 'src/other.ts': 'reads "spec/doc.yaml"' }, { ...then, 'src/other.ts': '' })), undefined,
    'code another test loads, named or not: its coverage says who runs it')
})
