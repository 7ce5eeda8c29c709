/**
 * The code a process never ran, in source lines: V8's block coverage of a script (a
 * function or block with a count of 0), carried back through the script's source map to the
 * files it was made from (TypeScript through its loader, or the bundle of `npm run build`).
 * What a process never ran cannot be why its test passed, so an edit inside it cannot be why
 * the test would now fail.
 */
import { SourceMap } from 'node:module'
import { fileURLToPath } from 'node:url'
import { dirname, resolve } from 'node:path'

/** A range of source lines, 1-based and inclusive, that a process never entered. */
export type Span = readonly [first: number, last: number]

/** One script of a V8 coverage file (`result[]`), and its entry in `source-map-cache`. */
export interface ScriptCoverage {
  url: string
  functions: Array<{ ranges: Array<{ startOffset: number, endOffset: number, count: number }> }>
}
export interface CachedSourceMap {
  lineLengths?: number[]
  data?: { sources?: string[], sourceRoot?: string } | null
}

/**
 * The files a script was made from (itself when it has no map), each with the spans of
 * lines the process never ran. `lineLengthsOf` gives a map-less script's line lengths.
 */
export function neverRun (script: ScriptCoverage, cached: CachedSourceMap | undefined, lineLengthsOf: (file: string) => number[]): Map<string, Span[]> {
  const file = fileURLToPath(script.url)
  const data = cached?.data
  const lineLengths = cached?.lineLengths ?? lineLengthsOf(file)
  const place = placer(lineLengths)
  const spans = new Map<string, Span[]>()

  if (data === undefined || data === null) {
    spans.set(file, [])
    for (const range of unrun(script)) {
      const start = place(range.startOffset)
      const end = place(range.endOffset - 1)
      spans.get(file)!.push([start.line + 1, end.line + 1])
    }
    return spans
  }

  const map = new SourceMap(data as ConstructorParameters<typeof SourceMap>[0], { lineLengths })
  const sourcePath = sourceResolver(file, data.sourceRoot)
  for (const source of data.sources ?? []) spans.set(sourcePath(source), [])
  for (const range of unrun(script)) {
    const start = place(range.startOffset)
    const end = place(range.endOffset - 1)
    const from = map.findEntry(start.line, start.column)
    const to = map.findEntry(end.line, end.column)
    // Only a range whose start the map names exactly, and whose end lies in the same file:
    // a guessed start could widen the span over code that ran. A guessed end (the mapping
    // before it) only narrows it.
    if (!('originalSource' in from) || !('originalSource' in to)) continue
    if (from.generatedLine !== start.line || from.generatedColumn !== start.column) continue
    if (from.originalSource !== to.originalSource || to.originalLine < from.originalLine) continue
    const source = sourcePath(from.originalSource)
    spans.get(source)?.push([from.originalLine + 1, to.originalLine + 1])
  }
  return spans
}

/** The ranges V8 counted 0 times: whole functions never called, and blocks never entered. */
function * unrun (script: ScriptCoverage) {
  for (const fn of script.functions) {
    for (const range of fn.ranges) if (range.count === 0) yield range
  }
}

/** Offset in a script to its 0-based line and column, by a binary search of line starts. */
function placer (lineLengths: readonly number[]) {
  const starts: number[] = []
  let offset = 0
  for (const length of lineLengths) {
    starts.push(offset)
    offset += length + 1
  }
  return (at: number) => {
    let low = 0
    let high = starts.length - 1
    while (low < high) {
      const middle = (low + high + 1) >> 1
      if (starts[middle]! <= at) low = middle
      else high = middle - 1
    }
    return { line: low, column: at - (starts[low] ?? 0) }
  }
}

/** A map's `sources` entry as an absolute path: a file URL, or relative to the script and `sourceRoot`. */
function sourceResolver (file: string, sourceRoot = '') {
  return (source: string) => source.startsWith('file:')
    ? fileURLToPath(source)
    : resolve(dirname(file), sourceRoot, source)
}
