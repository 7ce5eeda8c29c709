/**
 * Of the tests an edit may change, those that sit by what it changed, which
 * `npm run test:changed` runs first so that a broken edit shows in a minute: the tests of a
 * changed file's folder (src/features/pets/ by test/features/pets/), the contract's for the
 * document, the database's for a migration, and a test that is itself new, edited or failing.
 * The folders only order the tests; what is chosen comes from what each test ran.
 */

/** The test folders by a changed file. */
export function testFoldersBy (path: string): string[] {
  if (/^(spec\/|(client\/src\/)?generated\/openapi\.ts$)/.test(path)) return ['test/contract/']
  if (/^(migrations\/|generated\/(migrations|database)\.ts$)/.test(path)) return ['test/database/']
  // src/features/pets/columns.ts: test/features/pets/; src/app.ts: test/app*; client/src/x.ts: client/test/x*.
  const source = /^(client\/)?src\/(?:(.+\/)|([^/.]+)[^/]*$)/.exec(path)
  if (source !== null) return [`${source[1] ?? ''}test/${source[2] ?? source[3]}`]
  // scripts/bench/run.ts: test/scripts/bench*. What scripts/lib/ serves is too wide to name.
  const script = /^scripts\/([^/.]+)/.exec(path)
  return script === null || script[1] === 'lib' ? [] : [`test/scripts/${script[1]}`]
}

/** Whether a test chosen for `why` is among the nearest, given the folders by what changed. */
export function isNearest (test: string, why: string, folders: ReadonlySet<string>): boolean {
  if (why.startsWith(`${test}:`) || why === 'it failed when it last ran' || why === 'no record of what it runs yet') return true
  return [...folders].some((folder) => test.startsWith(folder))
}
