/**
 * Brings a database to the newest schema with Kysely's Migrator.
 *
 * The migrations are imported here, by name, rather than found by reading migrations/ at
 * run time: the service then loads them (and Kysely) once, as part of its own module graph,
 * which the built server carries in one file. Adding a migration is a file in migrations/
 * plus its line below; test/database/migrations.test.ts fails when the two disagree.
 */
import { Migrator, type Kysely, type Migration, type MigrationResult } from 'kysely'
import * as createPets from '../../migrations/20261122000000_create_pets.ts'
import * as createApiKeys from '../../migrations/20261122000100_create_api_keys.ts'
import * as uniqueActiveKeyNames from '../../migrations/20261122000200_unique_active_key_names.ts'
import * as createOrders from '../../migrations/20261122000300_create_orders.ts'
import * as createIdempotencyKeys from '../../migrations/20261122000400_create_idempotency_keys.ts'

/** Every migration by its file name (without extension), in the order they apply. */
export const MIGRATIONS: Readonly<Record<string, Migration>> = {
  '20261122000000_create_pets': createPets,
  '20261122000100_create_api_keys': createApiKeys,
  '20261122000200_unique_active_key_names': uniqueActiveKeyNames,
  '20261122000300_create_orders': createOrders,
  '20261122000400_create_idempotency_keys': createIdempotencyKeys
}

export function migrator (db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } })
}

export async function migrateToLatest (db: Kysely<any>): Promise<MigrationResult[]> {
  const { error, results = [] } = await migrator(db).migrateToLatest()
  if (error !== undefined) {
    const failed = results.find((result) => result.status === 'Error')
    throw new Error(`migration ${failed?.migrationName ?? '(unknown)'} failed`, { cause: error })
  }
  return results
}
