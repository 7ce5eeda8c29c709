/**
 * generated/migrations.ts: an import of every file of migrations/, by name, in name order.
 * The service applies what this list holds (src/database/migrate.ts); the bundle needs it
 * written out, since it cannot read a folder when it is built.
 */
import { migrationFiles } from '../../src/database/migration-files.ts'

/** The module's text, for the files of `folder`, imported from `importFrom` (relative to the module). */
export function migrationListSource (folder: URL, importFrom = '../migrations/'): string {
  const files = migrationFiles(folder) ?? []
  // The name is the file's, less what an identifier cannot hold.
  const identifier = (name: string) => `m${name.replace(/[^\w$]/g, '_')}`
  return [
    '// Generated from the files of migrations/ by `npm run codegen`. Do not edit.',
    '// The service applies these, in this order, and refuses to start while a file of',
    '// migrations/ is missing here (src/database/migration-files.ts).',
    '',
    "import type { Migration } from 'kysely'",
    ...files.map(({ name, file }) => `import * as ${identifier(name)} from '${importFrom}${file}'`),
    '',
    'export const MIGRATIONS: Readonly<Record<string, Migration>> = {',
    files.map(({ name }) => `  '${name}': ${identifier(name)}`).join(',\n'),
    '}',
    ''
  ].join('\n')
}
