/**
 * Which tests a changed file calls for. test/ mirrors src/, so a file's tests are the folder
 * of the same name: src/features/pets/repository.ts calls for test/features/pets/,
 * src/http/json.ts for test/http/. A test file calls for itself; the document and the
 * generated code for test/contract/; a migration for test/database/; a script for its own
 * tests in test/scripts/; the client package for client/test/. Prose calls for none.
 */

/** What a file calls for: test paths, none, or `everything` when it may touch any test. */
export type Tests = readonly string[] | 'everything'

export function testsOf (file: string, exists: (path: string) => boolean, scriptTests: readonly string[]): Tests {
  if (file.endsWith('.test.ts')) return exists(file) ? [file] : []
  if (file.endsWith('.md') || file.startsWith('docs/')) return []
  if (file.startsWith('client/')) return ['client/test']
  // A helper or a fixture: its users are the tests edited with it, or npm test.
  if (file.startsWith('test/')) return []
  if (file === 'spec/openapi.yaml' || file.startsWith('generated/')) return ['test/contract']
  if (file.startsWith('migrations/')) return ['test/database']
  const script = /^scripts\/(?:lib\/)?([^/.]+)/.exec(file)
  if (script !== null) return scriptTests.filter((test) => test.startsWith(`test/scripts/${script[1]!}`))
  const mirror = /^src\/([^/]+)\/([^/]+)/.exec(file)
  if (mirror === null) return 'everything'
  const [, top, inner] = mirror
  if (exists(`test/${top!}/${inner!}`)) return [`test/${top!}/${inner!}`]
  return exists(`test/${top!}`) ? [`test/${top!}`] : 'everything'
}

/** The paths to run for all the changed files, none inside another; `everything` names why. */
export function testsFor (files: readonly string[], exists: (path: string) => boolean, scriptTests: readonly string[]): { run: string[] } | { everything: string[] } {
  const everything = files.filter((file) => testsOf(file, exists, scriptTests) === 'everything')
  if (everything.length > 0) return { everything }
  const chosen = [...new Set(files.flatMap((file) => testsOf(file, exists, scriptTests) as readonly string[]))].sort()
  // A test file inside a folder that runs anyway is not named again.
  return { run: chosen.filter((path) => !chosen.some((other) => other !== path && path.startsWith(`${other}/`))) }
}
