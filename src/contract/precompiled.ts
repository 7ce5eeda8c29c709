/**
 * Validators and serializers the build wrote as code. Ajv and fast-json-stringify write
 * each one as JavaScript when the service starts, which V8 then compiles: a large part of
 * a start. So the build (scripts/precompile.ts) builds the service once and records the code
 * of each as a module of its own (Ajv's standalone code, fast-json-stringify's standalone
 * mode), keyed by what it was made from, and the bundle holds them in `PRECOMPILED`
 * (./precompiled-code.ts), where the code cache holds them compiled too.
 *
 * A function is taken from there only when made from the very same input: anything else
 * (a document edited since the build, another setting, the tests, `npm run dev`, which
 * run the sources) is compiled at start, as it always was.
 */
import { createHash } from 'node:crypto'
import { PRECOMPILED } from './precompiled-code.ts'

/** While the build records: each function's module, by key. */
let recording: Map<string, string> | undefined

/** The build's: from now on, the code of each function made through `precompiled` is kept in the map returned. */
export function recordPrecompiled (): ReadonlyMap<string, string> {
  recording = new Map()
  return recording
}

/** Whether the build is recording, so that Ajv keeps each validator's code. */
export const recordingPrecompiled = (): boolean => recording !== undefined

/**
 * The function made from `input`, a text that decides it whole (what it compiles and how):
 * the build's, when it wrote one; else `compile()`'s, whose module `moduleOf` writes while
 * the build records.
 */
export function precompiled<T> (input: string, compile: () => T, moduleOf: (compiled: T) => string): T {
  const key = createHash('sha256').update(input).digest('base64url')
  const made = PRECOMPILED.get(key)
  if (made !== undefined) return made() as T
  const compiled = compile()
  recording?.set(key, moduleOf(compiled))
  return compiled
}
