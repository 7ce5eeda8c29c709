/**
 * Brings a database to the newest schema with Kysely's Migrator, reading migrations/.
 */
import { promises as fs } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { FileMigrationProvider, Migrator, type Kysely, type MigrationResult } from 'kysely'

const migrationFolder = fileURLToPath(new URL('../../migrations', import.meta.url))

export async function migrateToLatest (db: Kysely<any>): Promise<MigrationResult[]> {
  const migrator = new Migrator({ db, provider: new FileMigrationProvider({ fs, path, migrationFolder }) })
  const { error, results = [] } = await migrator.migrateToLatest()
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error')
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error })
  }
  return results
}
