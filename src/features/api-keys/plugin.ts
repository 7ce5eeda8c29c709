/**
 * The accepted API keys, as the `apiKeys` decorator: those in the database and those of
 * the environment. Only hashes are held; see src/features/api-keys/key-material.ts for why comparing hashes is
 * timing-safe.
 *
 * Every second the database keys are reloaded, so a key made or revoked by `npm run keys`
 * takes effect on a running service without a restart, and the last use of each key is
 * written back (once a second at most, never on the request path).
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { hashKey } from './key-material.ts'
import { activeKeyHashes, recordKeyUse } from './repository.ts'

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

  /**
   * Writes the pending last-use times, then reloads the active keys. Never two at once: a
   * call while one runs shares it, so slow syncs cannot pile up.
   */
  sync (app: FastifyInstance): Promise<void> {
    this.running ??= this.writeAndReload(app).finally(() => { this.running = undefined })
    return this.running
  }

  private running: Promise<void> | undefined

  private async writeAndReload (app: FastifyInstance): Promise<void> {
    const used = this.used
    this.used = new Map()
    let writeError: unknown
    try {
      await recordKeyUse(app.db, used)
    } catch (error) {
      // Kept for the next sync, unless a newer use was seen meanwhile.
      for (const [hash, at] of used) if (!this.used.has(hash)) this.used.set(hash, at)
      writeError = error
    }
    // Whatever happened to the write (a full disk, a read-only replica, a busy database):
    // a revoked key must stop working, so the keys are reloaded all the same.
    this.fromDatabase = new Set(await activeKeyHashes(app.db))
    if (writeError !== undefined) throw writeError
  }
}

/** After this many failed syncs in a row, and every minute or so after, the log says so loudly. */
const LOUD_AFTER = 5
const LOUD_EVERY = 60

declare module 'fastify' {
  interface FastifyInstance {
    apiKeys: KeyRing
  }
}

export interface ApiKeysOptions {
  /** Keys accepted besides those in the database (PETSTORE_API_KEYS). */
  environmentKeys: readonly string[]
  syncIntervalMs: number
}

export default fp(async function apiKeys (app: FastifyInstance, options: ApiKeysOptions) {
  const ring = new KeyRing(options.environmentKeys)
  await ring.sync(app)
  let failures = 0
  const timer = setInterval(() => {
    ring.sync(app).then(() => { failures = 0 }, (error: unknown) => {
      failures++
      if (failures === LOUD_AFTER || (failures > LOUD_AFTER && failures % LOUD_EVERY === 0)) {
        app.log.error({ err: error, failures }, `API key sync has failed ${failures} times in a row: key use is not recorded, and if the keys cannot be read, new and revoked keys are not seen`)
      } else {
        app.log.warn({ err: error, failures }, 'could not sync API keys')
      }
    })
  }, options.syncIntervalMs).unref()
  // Runs before the database closes (onClose hooks run in reverse order of registration).
  app.addHook('onClose', async () => {
    clearInterval(timer)
    await ring.sync(app).catch((error: unknown) => app.log.warn({ err: error }, 'could not record API key use'))
  })
  app.decorate('apiKeys', ring)
}, { name: 'api-keys', dependencies: ['database'] })
