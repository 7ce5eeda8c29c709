/**
 * Which tests an edit may change the outcome of, from what each test ran when it last ran
 * (./record.ts). A test runs again when:
 * - it has no record (new, or never run with coverage), or failed when it last ran;
 * - a file it loaded changed where one of its processes ran: an edited line, or one added
 *   or removed, outside every function and block that process never entered (an edit inside
 *   code a test never ran cannot change what it saw; its first and last lines, where a
 *   function is named and closed, count as run);
 * - a file it reads rather than loads changed: one named in a file it loaded (the document
 *   in src/contract/document.ts, a fixture in its test), or one every test reads.
 */
import { basename } from 'node:path'
import { structuredPatch } from 'diff'
import type { Span } from './never-run.ts'
import type { TestRecord } from './store.ts'

/** Files that reach every test: its dependencies and how TypeScript and tap read it. */
export const READ_BY_EVERY_TEST = ['package.json', 'package-lock.json', 'tsconfig.json']

export interface Project {
  /** Every file's hash now. */
  files: ReadonlyMap<string, string>
  /** A file's text now. */
  text: (path: string) => string
  /** A recorded file's text by its hash then, and a recorded tree. */
  source: (hash: string) => string
  tree: (hash: string) => Record<string, string>
}

/** Why `test` should run again, or undefined when nothing it depends on changed. */
export function whyRun (test: string, record: TestRecord | undefined, project: Project): string | undefined {
  if (record === undefined) return 'no record of what it runs yet'
  if (!record.passed) return 'it failed when it last ran'
  for (const [path, loaded] of Object.entries(record.files)) {
    const now = project.files.get(path)
    if (now === loaded.hash) continue
    if (now === undefined) return `${path} is gone`
    const line = firstRunLineChanged(project.source(loaded.hash), project.text(path), loaded.neverRun)
    if (line !== undefined) return `${path}:${line} changed`
  }
  const then = project.tree(record.tree)
  for (const [path, hash] of project.files) {
    if (then[path] === hash || path in record.files) continue
    if (READ_BY_EVERY_TEST.includes(path)) return `${path} changed, which every test reads`
    const reader = Object.entries(record.files).find(([, loaded]) => names(project.source(loaded.hash), path))
    if (reader !== undefined) return `${path} changed, which ${reader[0]} names`
  }
  for (const path of Object.keys(then)) {
    if (project.files.has(path) || path in record.files) continue
    const reader = Object.entries(record.files).find(([, loaded]) => names(project.source(loaded.hash), path))
    if (reader !== undefined) return `${path} is gone, which ${reader[0]} names`
  }
  return undefined
}

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

/** Whether a file's text names `path`: the path itself, or its file name. */
function names (text: string, path: string) {
  return text.includes(path) || text.includes(basename(path))
}
