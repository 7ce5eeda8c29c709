/**
 * Run by node-tap after every run (`after` in package.json's tap settings): records, for each
 * test file that ran with coverage, what its processes loaded and ran, from node-tap's own
 * records (`.tap/processinfo`, `.tap/coverage`) and those of the processes the test started
 * (`.tap/children/`, see test/helpers/process.ts). `npm run test:changed` chooses from it.
 * A run without coverage (`--disable-coverage`, `npm run test:postgres`) records nothing.
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { neverRun, type CachedSourceMap, type ScriptCoverage, type Span } from './never-run.ts'
import { projectFiles } from './project-files.ts'
import { KEPT_READS } from './reach.ts'
import { Store, type LoadedFile } from './store.ts'

interface ProcessInfo {
  uuid: string
  root: string
  externalID?: string
  code: number | null
  signal: string | null
  files: string[]
  sources?: Record<string, string[]>
}

interface Coverage {
  result: ScriptCoverage[]
  'source-map-cache'?: Record<string, CachedSourceMap>
}

/** One process: the test file it ran for, and per project file it loaded, what it never ran. */
interface ProcessRecord { test: string, loaded: Map<string, Span[]> }

const root = process.cwd()
const self = fileURLToPath(import.meta.url)
const store = new Store(root)

/** A path of the project, relative, or undefined for one outside it or of no interest. */
function projectPath (file: string): string | undefined {
  // node-tap lists this program among the files of every test process, as one they must not cover.
  if (file === self) return undefined
  const path = relative(root, file).split(sep).join('/')
  if (path.startsWith('..') || /^(node_modules|dist|\.tap)\//.test(path) || path.includes('/node_modules/')) return undefined
  return path
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8'))
const lineLengthsOf = (file: string) => readFileSync(file, 'utf8').split('\n').map((line) => line.length)

/** The processes recorded under `base` (a `.tap` folder's parent), each with its coverage if it has one. */
function * processesIn (base: string): Generator<{ info: ProcessInfo, coverage?: Coverage }> {
  const infos = join(base, '.tap', 'processinfo')
  if (!existsSync(infos)) return
  for (const name of readdirSync(infos)) {
    if (!name.endsWith('.json')) continue
    const info = readJson<ProcessInfo>(join(infos, name))
    const coverageFile = join(base, '.tap', 'coverage', name)
    yield { info, coverage: existsSync(coverageFile) ? readJson<Coverage>(coverageFile) : undefined }
  }
}

/** What one process loaded of the project; a file its coverage does not describe counts as all run. */
function loadedBy (info: ProcessInfo, coverage: Coverage | undefined): Map<string, Span[]> {
  const loaded = new Map<string, Span[]>()
  for (const file of info.files) {
    for (const made of [file, ...(info.sources?.[file] ?? [])]) {
      const path = projectPath(made.startsWith('file:') ? new URL(made).pathname : made)
      if (path !== undefined) loaded.set(path, [])
    }
  }
  for (const script of coverage?.result ?? []) {
    // The project's files and its build; not a consumer's project in a temporary folder.
    if (!script.url.startsWith('file:') || relative(root, fileURLToPath(script.url)).startsWith('..')) continue
    // Code given to `node -e` has a URL of a file that is not there, and no lines to map.
    const cached = coverage?.['source-map-cache']?.[script.url]
    if (cached?.data == null && !existsSync(fileURLToPath(script.url))) continue
    for (const [file, spans] of neverRun(script, cached, lineLengthsOf)) {
      const path = projectPath(file)
      if (path !== undefined) loaded.set(path, spans)
    }
  }
  return loaded
}

const children = join(root, '.tap', 'children')

/** Reads this run's processes and brings the record of each test that ran with coverage up to date. */
function recordRun () {
  const processes: ProcessRecord[] = []
  const outcome = new Map<string, boolean>()

  const main = [...processesIn(root)]
  const byUuid = new Map(main.map(({ info }) => [info.uuid, info]))
  for (const { info, coverage } of main) {
    const test = byUuid.get(info.root)?.externalID
    if (test === undefined) continue
    if (info.uuid === info.root) {
      // A test process without coverage ran under --disable-coverage: nothing to learn from its run.
      if (coverage === undefined) continue
      outcome.set(test, info.code === 0 && info.signal === null)
    }
    processes.push({ test, loaded: loadedBy(info, coverage) })
  }
  if (existsSync(children)) {
    for (const folder of readdirSync(children)) {
      const test = decodeURIComponent(folder)
      for (const { info, coverage } of processesIn(join(children, folder))) processes.push({ test, loaded: loadedBy(info, coverage) })
    }
  }

  if (outcome.size > 0) {
    const files = projectFiles(root)
    const tree = store.keepTree(Object.fromEntries(files))
    const index = store.readIndex()
    for (const [test, passed] of outcome) {
      const record: Record<string, LoadedFile> = {}
      const seen = new Map<string, Set<string>>()
      for (const process of processes) {
        if (process.test !== test) continue
        for (const [path, spans] of process.loaded) {
          const hash = files.get(path)
          if (hash === undefined) continue
          const lists = seen.get(path) ?? new Set()
          lists.add(JSON.stringify(spans))
          seen.set(path, lists)
          record[path] ??= { hash, neverRun: [] }
        }
      }
      for (const [path, lists] of seen) {
        const parsed = [...lists].map((list) => JSON.parse(list) as Span[])
        // A process that ran all of a file settles it: no edit of it can be outside what ran.
        record[path]!.neverRun = parsed.some((spans) => spans.length === 0) ? [[]] : parsed
        store.keepSource(record[path]!.hash, readFileSync(join(root, path)))
      }
      index.tests[test] = { passed, tree, files: record }
    }
    for (const path of KEPT_READS) {
      const hash = files.get(path)
      if (hash !== undefined) store.keepSource(hash, readFileSync(join(root, path)))
    }
    store.writeIndex(index)
  }
}

try {
  recordRun()
} catch (error) {
  // The tests' own outcome stands; only the record is in doubt, so it goes, and the next
  // `npm run test:changed` runs everything and records it again.
  console.error(`npm run test:changed will run every test next: recording what this run ran failed (${(error as Error).message})`)
  store.forget()
}
rmSync(children, { recursive: true, force: true })
// Node's own coverage of the test processes (test/node-coverage.env): node-tap's is the one read.
rmSync(join(root, '.tap', 'node-coverage'), { recursive: true, force: true })
