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
import { isNearest, testFoldersBy } from '../../scripts/lib/test-deps/nearest.ts'
import { documentReach, migrationTables, narrowerReach, queriesOf } from '../../scripts/lib/test-deps/reach.ts'
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

t.test('an edit of the document reaches the operations using what it changed', async (t) => {
  const document = (petProperties: string, extra = '') => [
    'openapi: 3.1.0',
    'info: { title: Shop, version: 1.0.0 }',
    'paths:',
    '  /pets:',
    '    post: { operationId: createPet, responses: { "201": { content: { application/json: { schema: { $ref: "#/components/schemas/Pet" } } } } } }',
    '  /orders:',
    '    post: { operationId: placeOrder, responses: { "201": { content: { application/json: { schema: { $ref: "#/components/schemas/Order" } } } } } }',
    'components:',
    '  schemas:',
    `    Pet: { type: object, properties: { name: { $ref: "#/components/schemas/Name" }${petProperties} } }`,
    '    Name: { type: string }',
    '    Order: { type: object }',
    extra
  ].join('\n')
  const then = document('')
  const operations = (now: string) => documentReach(then, now)?.map((place) => place.what)
  t.same(operations(document(', nickname: { type: string }')), ['it calls createPet'], 'a property of a schema one operation answers')
  t.same(operations(then.replace('Name: { type: string }', 'Name: { type: string, maxLength: 9 }')), ['it calls createPet'], 'through a chain of $refs')
  t.same(operations(then.replace('version: 1.0.0', 'version: 1.1.0')), ['it fetches the document'], 'a part only served')
  t.same(operations(then.replace('version: 1.0.0', 'version: 1.1.0').replace('Order: { type: object }', 'Order: { type: object, required: [id] }')),
    ['it fetches the document', 'it calls placeOrder'])
  t.same(operations(then), [], 'nothing changed')
  t.equal(documentReach(then, `${then}\nsecurity: [{ key: [] }]`), undefined, 'a part every operation obeys: every reader')
  t.equal(documentReach(then, 'paths: ['), undefined, 'a document that does not parse: every reader')

  const place = documentReach(then, document(', nickname: { type: string }'))![0]!
  t.ok(place.line.test('  async createPet (request, reply) {') && !place.line.test('  async placeOrder (request, reply) {'))
})

t.test('a migration reaches the code querying its tables', async (t) => {
  t.same(migrationTables("await db.schema.alterTable('pets').addColumn('nickname', 'text').execute()\nawait db.schema.createIndex('x').on('pets').column('a').execute()"), ['pets'])
  t.same(migrationTables('await sql`alter table events drop constraint events_sequence_key`.execute(db)'), ['events'])
  t.equal(migrationTables('for (const table of TABLES) await sql`create trigger t after insert on `.append(sql.table(table)).execute(db)'), undefined,
    'tables named only as it runs: every test')
  const { line } = queriesOf(['pets'], 'it queries pets')
  t.ok(line.test(".selectFrom('pets')") && line.test('insert into pets (name)') && !line.test(".selectFrom('orders')") && !line.test("selectFrom('pets_archive')"))

  const migration = "await db.schema.alterTable('pets').addColumn('nickname', 'text').execute()"
  const list = (...files: string[]) => files.map((file) => `import * as m from '../${file}'`).join('\n')
  const texts: Record<string, string> = { 'migrations/2_nickname.ts': migration, 'migrations/1_pets.ts': "createTable('pets')", 'generated/migrations.ts': list('migrations/1_pets.ts', 'migrations/2_nickname.ts') }
  const reach = (path: string, then?: string) => narrowerReach(path, (file) => file === path ? then : undefined, (file) => texts[file])?.map((place) => place.what)
  t.same(reach('generated/migrations.ts', list('migrations/1_pets.ts')), ['it queries pets'], 'the list, by what it adds')
  t.same(reach('migrations/2_nickname.ts'), ['it queries pets'], 'a migration itself')
  t.equal(reach('generated/migrations.ts', list('migrations/2_nickname.ts', 'migrations/1_pets.ts')), undefined, 'reordered: every test')
  t.equal(reach('src/a.ts', 'then'), undefined, 'any other file: as it is loaded or read')

  const thenTexts: Record<string, string> = { 'generated/migrations.ts': list('migrations/1_pets.ts'), 'generated/database.ts': 'old types' }
  const types = (nowTexts: Record<string, string>) => narrowerReach('generated/database.ts', (file) => thenTexts[file], (file) => nowTexts[file] ?? texts[file])?.map((place) => place.what)
  t.same(types({ 'generated/database.ts': 'new types' }), ['it queries pets'], 'types made from the migrations reach as their migrations do')
  t.equal(types({ 'generated/database.ts': 'new types', 'generated/migrations.ts': list('migrations/1_pets.ts') }), undefined,
    'types changed while their source did not: every reader')
})

t.test('a test the document or a migration reaches runs again; one they do not, not', async (t) => {
  const handlers = 'export const handlers = {\n  async createPet (request, reply) {\n    return 1\n  },\n  async placeOrder (request, reply) {\n    return 2\n  }\n}\n'
  const files = { 'test/a.test.ts': test, 'src/features/pets/handlers.ts': handlers, 'src/reader.ts': reader, 'spec/doc.yaml': 'a: 1' }
  const onlyOrders: TestRecord = {
    passed: true,
    tree: 'then',
    files: {
      'test/a.test.ts': { hash: `hash of ${test}`, neverRun: [[]] },
      'src/features/pets/handlers.ts': { hash: `hash of ${handlers}`, neverRun: [[[2, 4]]] },
      'src/reader.ts': { hash: `hash of ${reader}`, neverRun: [[]] }
    }
  }
  const reaching = (what: string, testText = test): Project => ({
    ...project({ ...files, 'test/a.test.ts': testText, 'spec/doc.yaml': 'a: 2' }, files),
    narrower: (path) => path === 'spec/doc.yaml' ? [{ file: /handlers\.ts$/, line: new RegExp(`async ${what} \\(`), body: true, what: `it calls ${what}` }] : undefined
  })
  t.equal(whyRun('test/a.test.ts', onlyOrders, reaching('createPet')), undefined, 'it never created a pet')
  t.equal(whyRun('test/a.test.ts', onlyOrders, reaching('placeOrder')), 'spec/doc.yaml changed, and it calls placeOrder')
  const naming = 'reads "spec/doc.yaml"'
  const namingRecord: TestRecord = { ...onlyOrders, files: { ...onlyOrders.files, 'test/a.test.ts': { hash: `hash of ${naming}`, neverRun: [[]] } } }
  t.equal(whyRun('test/a.test.ts', namingRecord, reaching('createPet', naming)), 'spec/doc.yaml changed, which test/a.test.ts names', 'a test reading the document itself reads all of it')
})

t.test('the nearest of the chosen: the tests by what changed, and a test itself new, edited or failing', async (t) => {
  t.same(['src/features/pets/columns.ts', 'src/app.ts', 'client/src/pages.ts', 'spec/openapi.yaml', 'generated/openapi.ts', 'migrations/2_x.ts',
    'generated/database.ts', 'scripts/bench/run.ts', 'scripts/lib/spawn-server.ts', 'README.md'].map(testFoldersBy),
  [['test/features/pets/'], ['test/app'], ['client/test/pages'], ['test/contract/'], ['test/contract/'], ['test/database/'],
    ['test/database/'], ['test/scripts/bench'], [], []])
  const folders = new Set(['test/features/pets/'])
  t.ok(isNearest('test/features/pets/get-pet.test.ts', 'src/features/pets/columns.ts:24 changed', folders))
  t.notOk(isNearest('test/features/orders/place-order.test.ts', 'src/features/pets/columns.ts:24 changed', folders))
  t.ok(isNearest('test/features/orders/place-order.test.ts', 'test/features/orders/place-order.test.ts:9 changed', folders))
  t.ok(isNearest('test/features/orders/place-order.test.ts', 'it failed when it last ran', folders))
})
