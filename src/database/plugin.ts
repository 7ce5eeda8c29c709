/**
 * The database, as the `db` decorator: opened and migrated at start, closed on close.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Kysely } from 'kysely'
import type { DatabaseSettings } from '../config/settings.ts'
import { checkpoint, connect, poolOf, type DatabaseOptions } from './connect.ts'
import { describeDatabase } from './url.ts'
import { checkMigrationList } from './migration-files.ts'
import { migrateToLatest, SERVICE_MIGRATIONS } from './migrate.ts'
import type { Database } from './schema.ts'

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>
  }
}

/**
 * An error of opening or migrating, naming the database, so a failed start says which; and,
 * for SQLite's driver built for another Node (Node upgraded since `npm install`), the
 * command that builds it again.
 */
export function cannotOpen (url: string, error: unknown): Error {
  const { code, message } = error as NodeJS.ErrnoException
  const rebuild = code === 'ERR_DLOPEN_FAILED' && /NODE_MODULE_VERSION/.test(message)
    ? ` (better-sqlite3 was built for another version of Node than ${process.version}: run \`npm rebuild better-sqlite3\` with this one)`
    : ''
  return new Error(`the database ${describeDatabase(url)} could not be opened${rebuild}: ${message}`, { cause: error })
}

export default fp(async function database (app: FastifyInstance, options: DatabaseSettings & Pick<DatabaseOptions, 'traced'>) {
  // A migration file the service does not carry is no fault of the database: said first, as it is.
  checkMigrationList(Object.keys(SERVICE_MIGRATIONS.migrations), SERVICE_MIGRATIONS.folder)
  const db = await connect({
    ...options,
    onConnectionError: (error) => app.log.warn({ err: error }, 'database connection lost'),
    onQuery: app.prometheus?.observeQuery
  }).catch((error) => { throw cannotOpen(options.url, error) })
  const pool = poolOf(db)
  if (pool !== undefined) app.prometheus?.watchPool(() => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }))
  try {
    for (const result of await migrateToLatest(db)) {
      app.log.info({ migration: result.migrationName }, 'migration applied')
    }
    await checkpoint(db)
  } catch (error) {
    await db.destroy()
    throw cannotOpen(options.url, error)
  }
  app.decorate('db', db)
  app.addHook('onClose', async () => db.destroy())
}, { name: 'database', dependencies: ['metrics'] })
