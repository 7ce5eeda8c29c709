/**
 * Encoded answers of successful reads, kept by the canonical form of their query
 * (./key.ts), never stale.
 *
 * Freshness is proven, not guessed: every lookup first reads the database's data version
 * (../../database/data-version.ts: it moves with any commit, whoever makes it, on SQLite
 * and on PostgreSQL alike), and an answer is served only to a lookup that read the very
 * version the answer was kept under. An answer is kept under the version read before its
 * query ran: if anything was committed since, that version never comes back, and the
 * answer is never served. A version that moves empties the cache, as it holds nothing
 * servable any more.
 *
 * Each entry holds the body as sent, its entity tag and the headers its handler set (a
 * page's `Link`), so a hit, and a 304, costs no query, serialization or hashing.
 */
import { LRUCache } from 'lru-cache'
import type { DataVersion, DataVersionReader } from '../../database/data-version.ts'

export interface CachedAnswer {
  /**
   * JSON text in a string of its own (`flat`). A string rather than a Buffer: it costs
   * less memory (no ArrayBuffer and backing store beside it), and Node
   * writes a string body in one system call with the status line and headers, where a
   * Buffer is a second piece of a `writev`.
   */
  body: string
  etag: string
  headers: Readonly<Record<string, string>>
}

interface Entry extends CachedAnswer {
  /** The data version read before the answer's query ran. */
  version: DataVersion
}

/**
 * `text` as one flat string of its own. A serializer's output is often a rope of its
 * pieces, and a slice keeps its whole parent alive; kept as they are, either multiplied
 * the cache's real memory. Decoding a fresh encoding gives a new, flat string.
 */
export function flat (text: string): string {
  return Buffer.from(text).toString()
}

/**
 * What the cache may spend on remembering the keys it has seen once, as a share of its
 * size. An answer is kept only when its key is asked for again (the "doorkeeper" of
 * TinyLFU): pages read once, such as a crawl through random cursors, never enter, so they
 * neither push out the answers read over and over nor fill memory with entries that are
 * thrown away unused. Counted in bytes, not keys, so that long keys cannot make it cost
 * more than that share: an eighth of the default 4 MiB still remembers five to seven
 * thousand keys of the lengths reads have (`getPet/123`, `listPets?cursor=...&limit=20`),
 * more than the 4096 it used to count.
 * @see https://arxiv.org/abs/1512.00727
 */
const SEEN_ONCE_SHARE = 1 / 8

/** What one remembered key costs beside its characters: V8's string header, the Set's slot. */
const SEEN_ONCE_ENTRY_BYTES = 64

export class ResponseCache {
  readonly #entries: LRUCache<string, Entry>
  readonly #seenOnce = new Set<string>()
  readonly #seenOnceMaxBytes: number
  #seenOnceBytes = 0
  #version: DataVersion | undefined

  constructor (private readonly reader: DataVersionReader, maxBytes: number) {
    this.#seenOnceMaxBytes = Math.floor(maxBytes * SEEN_ONCE_SHARE)
    this.#entries = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (answer, key) => answer.body.length + key.length + 200
    })
  }

  /**
   * Whether the version is read with a query that waits on the database (PostgreSQL), and
   * so within the request's deadline, or in this process (SQLite).
   */
  get waitsOnDatabase (): boolean {
    return this.reader.waitsOnDatabase
  }

  /** The database's version now (the same value while it stands still), emptying the cache if it moved. */
  async version (): Promise<DataVersion> {
    const version = await this.reader.read()
    if (version !== this.#version) {
      this.#entries.clear()
      this.#version = version
    }
    return version
  }

  /** The answer kept for `key` under `version`, which `version()` just gave. */
  get (key: string, version: DataVersion): CachedAnswer | undefined {
    const entry = this.#entries.get(key)
    return entry?.version === version ? entry : undefined
  }

  /**
   * Whether an answer for `key`, which missed, is worth keeping: true from its second miss
   * on. Asked before the answer is encoded, so a page read once costs nothing extra.
   */
  admits (key: string): boolean {
    if (this.#seenOnce.delete(key)) {
      this.#seenOnceBytes -= seenOnceCost(key)
      return true
    }
    const cost = seenOnceCost(key)
    if (cost > this.#seenOnceMaxBytes) return false
    // Forgotten all at once when full: a key asked for often is soon seen again.
    if (this.#seenOnceBytes + cost > this.#seenOnceMaxBytes) {
      this.#seenOnce.clear()
      this.#seenOnceBytes = 0
    }
    // Flat, as the answers are: a key built by concatenation is a rope of its pieces.
    this.#seenOnce.add(flat(key))
    this.#seenOnceBytes += cost
    return false
  }

  /** Keeps an answer whose query ran after `version` was read, unless the database has moved since. */
  keep (key: string, version: DataVersion, answer: CachedAnswer): void {
    if (version === this.#version) this.#entries.set(flat(key), { ...answer, version })
  }

  get size (): number {
    return this.#entries.size
  }

  /** What the keys seen once are counted as costing, in bytes; at most an eighth of the size. */
  get seenOnceBytes (): number {
    return this.#seenOnceBytes
  }
}

/** A key is ASCII (./key.ts): its length is its bytes. */
function seenOnceCost (key: string): number {
  return key.length + SEEN_ONCE_ENTRY_BYTES
}
