/**
 * The accepted API keys, as the `apiKeys` decorator: those in the database and those of
 * the environment. Only hashes are held; see src/features/api-keys/key-material.ts for why comparing hashes is
 * timing-safe.
 *
 * Every second the database keys are reloaded, so a key made, revoked or rotated by
 * `npm run keys` takes effect on a running service without a restart, and the last use of
 * each key is written back (once a second at most, never on the request path). Expiry is
 * judged on each request.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { hashKey } from './key-material.ts'
import { currentKeys, recordKeyUse } from './repository.ts'

/** A key that was accepted, as the rest of the service sees it. */
export interface AcceptedKey {
  hash: string
  /** The scopes it holds; undefined for a key of the environment, which holds every scope. */
  scopes: ReadonlySet<string> | undefined
}

/** What a presented key turned out to be: accepted, expired, or unknown (undefined). */
export type KeyLookup = { accepted: AcceptedKey } | { expired: true } | undefined

interface StoredKey {
  accepted: AcceptedKey
  /** Milliseconds since the epoch; undefined: never. */
  expiresAt: number | undefined
}

export class KeyRing {
  private readonly fromEnvironment: ReadonlyMap<string, AcceptedKey>
  private fromDatabase: ReadonlyMap<string, StoredKey> = new Map()
  private used = new Map<string, Date>()

  /**
   * @param everyScope the scopes of the document, which a key made without naming any
   * (the first-run key, `keys create` by default) holds
   */
  constructor (environmentKeys: readonly string[], readonly everyScope: readonly string[], private readonly now: () => number = Date.now) {
    this.fromEnvironment = new Map(environmentKeys.map((key) => [hashKey(key), { hash: hashKey(key), scopes: undefined }]))
  }

  /** What `key` is: accepted (its use is then recorded), expired, or unknown. */
  identify (key: string): KeyLookup {
    const hash = hashKey(key)
    const environmental = this.fromEnvironment.get(hash)
    if (environmental !== undefined) return { accepted: environmental }
    const stored = this.fromDatabase.get(hash)
    if (stored === undefined) return undefined
    // Judged on every request, so a key stops at its expiry, not at the next reload.
    if (stored.expiresAt !== undefined && stored.expiresAt <= this.now()) return { expired: true }
    this.used.set(hash, new Date())
    return { accepted: stored.accepted }
  }

  get size (): number {
    return this.fromEnvironment.size + this.fromDatabase.size
  }

  /**
   * Reloads the keys and writes the pending last-use times, each on its own: a write that
   * fails or waits (a full disk, a read-only replica, a lock) never holds back the reload,
   * so a new, revoked or rotated key is seen all the same. Never two of either at once: a
   * call while one runs shares it, so slow ones cannot pile up. Rejects with the write's
   * error once both are done.
   */
  async sync (app: FastifyInstance): Promise<void> {
    this.reloading ??= this.reload(app).finally(() => { this.reloading = undefined })
    this.writing ??= this.writeUse(app).finally(() => { this.writing = undefined })
    const [reloaded, written] = await Promise.allSettled([this.reloading, this.writing])
    if (reloaded.status === 'rejected') throw reloaded.reason
    if (written.status === 'rejected') throw written.reason
  }

  private reloading: Promise<void> | undefined
  private writing: Promise<void> | undefined

  private async reload (app: FastifyInstance): Promise<void> {
    const rows = await currentKeys(app.db)
    this.fromDatabase = new Map(rows.map((row) => [row.hash, {
      accepted: { hash: row.hash, scopes: new Set(row.scopes) },
      expiresAt: row.expiresAt === null ? undefined : Date.parse(row.expiresAt)
    }]))
  }

  private async writeUse (app: FastifyInstance): Promise<void> {
    const used = this.used
    this.used = new Map()
    try {
      await recordKeyUse(app.db, used)
    } catch (error) {
      // Kept for the next sync, unless a newer use was seen meanwhile.
      for (const [hash, at] of used) if (!this.used.has(hash)) this.used.set(hash, at)
      throw error
    }
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
  /** The scopes the document lists, every one of which a first-run key holds. */
  everyScope: readonly string[]
  syncIntervalMs: number
}

export default fp(async function apiKeys (app: FastifyInstance, options: ApiKeysOptions) {
  const ring = new KeyRing(options.environmentKeys, options.everyScope)
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
