/**
 * Which tests an edit may change the outcome of, from what each test ran when it last ran
 * (./record.ts). A test runs again when:
 * - it has no record (new, or never run with coverage), or failed when it last ran;
 * - a file it loaded changed where one of its processes ran: an edited line, or one added
 *   or removed, outside every function and block that process never entered (an edit inside
 *   code a test never ran cannot change what it saw; its first and last lines, where a
 *   function is named and closed, count as run);
 * - a file it reads rather than loads (one no test loads as code) changed: one named in a
 *   file it loaded (the document by its path in src/contract/document.ts, a fixture by its
 *   name in the test), or one every test reads.
 * The document and the migrations, which every test of the app reads or runs, reach only the
 * tests that ran what their edit changes (./reach.ts): the operations using an edited schema,
 * the queries of a migrated table. A test naming the document itself reads all of it.
 */
import { basename } from 'node:path'
import { structuredPatch } from 'diff'
import type { Span } from './never-run.ts'
import type { Place } from './reach.ts'
import type { TestRecord } from './store.ts'

/** Files that reach every test: its dependencies and how TypeScript and tap read it. */
export const READ_BY_EVERY_TEST = ['package.json', 'package-lock.json', 'tsconfig.json']

export interface Project {
  /** The files some test loads as code: their tests are known from the coverage, not from names. */
  loaded: ReadonlySet<string>
  /** Every file's hash now. */
  files: ReadonlyMap<string, string>
  /** A file's text now. */
  text: (path: string) => string
  /** A recorded file's text by its hash then, and a recorded tree. */
  source: (hash: string) => string
  tree: (hash: string) => Record<string, string>
  /** The places an edit of a file reaches, given each file's hash when the test ran, where narrower than its readers (./reach.ts). */
  narrower?: (path: string, thenHashOf: (path: string) => string | undefined) => Place[] | undefined
}

/** Why `test` should run again, or undefined when nothing it depends on changed. */
export function whyRun (test: string, record: TestRecord | undefined, project: Project): string | undefined {
  if (record === undefined) return 'no record of what it runs yet'
  if (!record.passed) return 'it failed when it last ran'
  const then = project.tree(record.tree)
  const thenHashOf = (path: string) => record.files[path]?.hash ?? then[path]
  for (const [path, loaded] of Object.entries(record.files)) {
    const now = project.files.get(path)
    if (now === loaded.hash) continue
    if (now === undefined) return `${path} is gone`
    const places = project.narrower?.(path, thenHashOf)
    if (places !== undefined) {
      const reached = reachedBy(record, places, project)
      if (reached !== undefined) return `${path} changed, and ${reached}`
      continue
    }
    const line = firstRunLineChanged(project.source(loaded.hash), project.text(path), loaded.neverRun)
    if (line !== undefined) return `${path}:${line} changed`
  }
  for (const [path, hash] of project.files) {
    if (then[path] === hash || path in record.files || project.loaded.has(path)) continue
    if (READ_BY_EVERY_TEST.includes(path)) return `${path} changed, which every test reads`
    const readers = Object.keys(record.files).filter((file) => names(file, project.source(record.files[file]!.hash), path))
    if (readers.length === 0) continue
    const places = readers.some(isTest) ? undefined : project.narrower?.(path, thenHashOf)
    if (places === undefined) return `${path} changed, which ${readers[0]} names`
    const reached = reachedBy(record, places, project)
    if (reached !== undefined) return `${path} changed, and ${reached}`
  }
  for (const path of Object.keys(then)) {
    if (project.files.has(path) || path in record.files || project.loaded.has(path)) continue
    const reader = Object.keys(record.files).find((file) => names(file, project.source(record.files[file]!.hash), path))
    if (reader !== undefined) return `${path} is gone, which ${reader} names`
  }
  return undefined
}

/** What `record`'s test ran of `places`, or undefined when it ran none. */
function reachedBy (record: TestRecord, places: readonly Place[], project: Project): string | undefined {
  for (const place of places) {
    for (const [path, loaded] of Object.entries(record.files)) {
      if (!place.file.test(path)) continue
      const lines = project.source(loaded.hash).split('\n')
      for (let i = 0; i < lines.length; i++) {
        if (!place.line.test(lines[i]!)) continue
        const line = i + 1 + (place.body ? 1 : 0)
        if (loaded.neverRun.length === 0 || loaded.neverRun.some((spans) => !spans.some(([start, end]) => start <= line && line <= end))) return place.what
      }
    }
  }
  return undefined
}

const isTest = (path: string) => /^(client\/)?test\//.test(path)

/**
 * The first line (of the text then) of an edit that touches code a process ran, or
 * undefined when every edit lies inside code that each process loading the file never ran.
 */
export function firstRunLineChanged (then: string, now: string, neverRun: readonly Span[][]): number | undefined {
  for (const hunk of structuredPatch('', '', then, now, '', '', { context: 0 }).hunks) {
    // A hunk replacing lines first..last, or, with none (oldLines 0), adding lines between
    // oldStart - 1 and oldStart.
    const inside = hunk.oldLines === 0
      ? ([start, end]: Span) => start <= hunk.oldStart - 1 && hunk.oldStart <= end
      : ([start, end]: Span) => start < hunk.oldStart && hunk.oldStart + hunk.oldLines - 1 < end
    const ran = neverRun.length === 0 || neverRun.some((spans) => !spans.some(inside))
    if (ran) return Math.max(hunk.oldStart, 1)
  }
  return undefined
}

/**
 * Whether the file at `reader` (with text `text`) names `path`. A test or its helper names
 * the data it reads by its file name (`fixtures/stability.yaml`, `README.md`); other code,
 * and any code file, by its path in the project (`spec/openapi.yaml`), since a bare name
 * there is as often one it leaves out (the build's inputs are every file but a README.md).
 */
function names (reader: string, text: string, path: string) {
  const byName = isTest(reader) && !CODE.test(path)
  return byName ? text.includes(basename(path)) : path.includes('/') && text.includes(path)
}

/** Code, named by its path alone: a test's imports name many a `store.ts`. */
const CODE = /\.[cm]?[jt]s$/
