/**
 * The accepted API keys, as the `apiKeys` decorator: those in the database (reloaded every
 * second, so a revoked key stops working without a restart) and those of the environment.
 * Only hashes are held; see src/keys.ts for why comparing hashes is timing-safe.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { hashKey } from '../keys.ts'
import { activeKeyHashes } from '../repositories/api-keys.ts'

export class KeyRing {
  private readonly fromEnvironment: ReadonlySet<string>
  private fromDatabase: ReadonlySet<string> = new Set()

  constructor (environmentKeys: readonly string[]) {
    this.fromEnvironment = new Set(environmentKeys.map(hashKey))
  }

  verify (key: string): boolean {
    const hash = hashKey(key)
    return this.fromEnvironment.has(hash) || this.fromDatabase.has(hash)
  }

  get size (): number {
    return this.fromEnvironment.size + this.fromDatabase.size
  }

  async reload (app: FastifyInstance): Promise<void> {
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
  reloadIntervalMs?: number
}

export default fp(async function apiKeys (app: FastifyInstance, options: ApiKeysOptions) {
  const ring = new KeyRing(options.environmentKeys)
  await ring.reload(app)
  const timer = setInterval(() => {
    ring.reload(app).catch((error: unknown) => app.log.warn({ err: error }, 'could not reload API keys'))
  }, options.reloadIntervalMs ?? 1000).unref()
  app.addHook('onClose', async () => clearInterval(timer))
  app.decorate('apiKeys', ring)
}, { name: 'api-keys', dependencies: ['database'] })
