/**
 * The files of migrations/, which are what the service applies.
 *
 * The service does not read them at run time: the built server is one file, so it carries
 * the list `npm run codegen` makes of them (generated/migrations.ts). Where the folder is
 * found beside the running code, the list is checked against it at start, so a file added
 * without regenerating the list stops the start instead of being skipped.
 *
 * This module imports no migration, so `npm run codegen` can load it while the list is stale.
 */
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/**
 * migrations/ beside the running code: the sources' own, or dist/migrations/ for the build
 * (compiled there by `npm run build`, and found from the bundle too: see scripts/bundle.ts).
 */
export const MIGRATIONS_FOLDER = new URL('../../migrations/', import.meta.url)

/** What Kysely's FileMigrationProvider takes for a migration: scripts, not declarations. */
const MIGRATION_FILE = /^(?!.*\.d\.m?ts$).+\.m?[jt]s$/

export interface MigrationFile {
  /** The file name without its extension: the name the database records. */
  name: string
  file: string
}

/** The migration files of a folder, in name order (the order they apply); undefined without the folder. */
export function migrationFiles (folder: URL): MigrationFile[] | undefined {
  let files: string[]
  try {
    files = readdirSync(folder)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  return files.filter((file) => MIGRATION_FILE.test(file)).sort()
    .map((file) => ({ name: file.slice(0, file.lastIndexOf('.')), file }))
}

/** Refuses a list of migrations that lacks a file of `folder`, which would never be applied. */
export function checkMigrationList (names: readonly string[], folder: URL): void {
  const known = new Set(names)
  const missing = (migrationFiles(folder) ?? []).filter(({ name }) => !known.has(name))
  if (missing.length === 0) return
  const paths = missing.map(({ file }) => fileURLToPath(new URL(file, folder)))
  throw new Error(`${paths.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not in the service's list of migrations ` +
    '(generated/migrations.ts), so would never be applied: run `npm run codegen` (and `npm run build` before `npm start`)')
}
