/**
 * The accepted API keys, as the `apiKeys` decorator: those in the database and those of
 * the environment. Only hashes are held; see src/keys.ts for why comparing hashes is
 * timing-safe.
 *
 * Every second the database keys are reloaded, so a key made or revoked by `npm run keys`
 * takes effect on a running service without a restart, and the last use of each key is
 * written back (once a second at most, never on the request path).
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { hashKey } from '../keys.ts'
import { activeKeyHashes, recordKeyUse } from '../repositories/api-keys.ts'

export class KeyRing {
  private readonly fromEnvironment: ReadonlySet<string>
  private fromDatabase: ReadonlySet<string> = new Set()
  private used = new Map<string, Date>()

  constructor (environmentKeys: readonly string[]) {
    this.fromEnvironment = new Set(environmentKeys.map(hashKey))
  }

  /** The hash of `key` when it is accepted, else undefined. */
  identify (key: string): string | undefined {
    const hash = hashKey(key)
    if (this.fromEnvironment.has(hash)) return hash
    if (!this.fromDatabase.has(hash)) return undefined
    this.used.set(hash, new Date())
    return hash
  }

  get size (): number {
    return this.fromEnvironment.size + this.fromDatabase.size
  }

  /** Writes the pending last-use times, then reloads the active keys. */
  async sync (app: FastifyInstance): Promise<void> {
    const used = this.used
    this.used = new Map()
    try {
      await recordKeyUse(app.db, used)
    } catch (error) {
      // Kept for the next sync, unless a newer use was seen meanwhile.
      for (const [hash, at] of used) if (!this.used.has(hash)) this.used.set(hash, at)
      throw error
    }
    this.fromDatabase = new Set(await activeKeyHashes(app.db))
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    apiKeys: KeyRing
  }
}

export interface ApiKeysOptions {
  /** Keys accepted besides those in the database (PETSTORE_API_KEYS). */
  environmentKeys: readonly string[]
  syncIntervalMs?: number
}

export default fp(async function apiKeys (app: FastifyInstance, options: ApiKeysOptions) {
  const ring = new KeyRing(options.environmentKeys)
  await ring.sync(app)
  const timer = setInterval(() => {
    ring.sync(app).catch((error: unknown) => app.log.warn({ err: error }, 'could not sync API keys'))
  }, options.syncIntervalMs ?? 1000).unref()
  // Runs before the database closes (onClose hooks run in reverse order of registration).
  app.addHook('onClose', async () => {
    clearInterval(timer)
    await ring.sync(app).catch((error: unknown) => app.log.warn({ err: error }, 'could not record API key use'))
  })
  app.decorate('apiKeys', ring)
}, { name: 'api-keys', dependencies: ['database'] })
