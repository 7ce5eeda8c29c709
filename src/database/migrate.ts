/**
 * Brings a database to the newest schema with Kysely's Migrator.
 *
 * The migrations are every file of migrations/, in name order, as listed in
 * generated/migrations.ts by `npm run codegen`: the service loads them as part of its own
 * module graph, which the built server carries in one file. A file the list lacks, a
 * migration the database has applied but the service lacks, or one left unapplied, each
 * stops the migration with a message naming it; none is skipped.
 */
import { Migrator, type Kysely, type Migration, type MigrationResult } from 'kysely'
import { MIGRATIONS } from '../../generated/migrations.ts'
import { checkMigrationList, MIGRATIONS_FOLDER } from './migration-files.ts'

export interface MigrationSource {
  /** Each migration by its file name without extension. */
  migrations: Readonly<Record<string, Migration>>
  /** The folder of the files, checked against `migrations` when it exists. */
  folder: URL
}

/** The service's own: generated/migrations.ts, checked against migrations/ beside the running code. */
export const SERVICE_MIGRATIONS: MigrationSource = { migrations: MIGRATIONS, folder: MIGRATIONS_FOLDER }

export function migrator (db: Kysely<any>, migrations = MIGRATIONS): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } })
}

export async function migrateToLatest (db: Kysely<any>, source = SERVICE_MIGRATIONS): Promise<MigrationResult[]> {
  checkMigrationList(Object.keys(source.migrations), source.folder)
  const migrations = migrator(db, source.migrations)
  const { error, results = [] } = await migrations.migrateToLatest()
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error')
    // Kysely refuses to start at all when the database has applied a migration the service
    // lacks, or when a pending one sorts before the last applied: its message names them.
    throw failed === undefined
      ? new Error(`migrations refused: ${(error as Error).message}`, { cause: error })
      : new Error(`migration ${failed.migrationName} failed`, { cause: error })
  }
  // What Kysely did not apply, whatever the reason, is an error too: never a silent skip.
  const unapplied = (await migrations.getMigrations()).filter((migration) => migration.executedAt === undefined)
  if (unapplied.length > 0) {
    throw new Error(`migration ${unapplied.map((migration) => migration.name).join(', ')} not applied`)
  }
  return results
}
