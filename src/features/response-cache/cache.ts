/**
 * Encoded answers of successful reads, kept by the canonical form of their query
 * (./key.ts), never stale.
 *
 * Freshness is proven, not guessed. Every lookup first reads the database
 * (../../database/data-version.ts): its data version, which moves with any commit,
 * whoever makes it, and the pets, categories and orders changed since the reading before,
 * on SQLite and on PostgreSQL alike, in this instance or another. Before a reading is used, what it
 * tells is applied:
 * - an answer whose handler told which rows it was made from (../../database/row-reads.ts: a pet, a page
 *   of orders) is dropped when one of them changed, and stays otherwise: a new pet, with
 *   its new id, leaves every pet and every full page before it cached;
 * - any other answer is served only to lookups that read the very version it was kept
 *   under, and goes when the version moves;
 * - when the changes are not known (the first reading, a long pause, a flood), every
 *   answer goes.
 *
 * An answer is kept under the reading made before its query ran. A change its query may
 * have missed is one applied since: the answer is not kept if a change applied since that
 * reading touches its rows (the recent changes are logged for this), and any later change
 * drops it once kept.
 *
 * Each entry holds the body as sent, its entity tag and the headers its handler set (a
 * page's `Link`), so a hit, and a 304, costs no query, serialization or hashing.
 */
import { LRUCache } from 'lru-cache'
import type { DataVersion, DataVersionReader, Reading } from '../../database/data-version.ts'
import { EVERY_ROW, type RowChange } from '../../database/row-changes.ts'
import { affects, type Read } from '../../database/row-reads.ts'

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
  /** The rows the answer was made from; undefined when the handler did not tell. */
  reads: readonly Read[] | undefined
  /** Where `reads` is undefined: the data version read before the answer's query ran. */
  version: DataVersion
}

/** What a lookup read: the version, and how many readings with changes had been applied. */
export interface Lookup {
  version: DataVersion
  generation: number
}

/** How many of the latest changes are logged, to check the answers about to be kept. */
const LOGGED_CHANGES = 4096

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

/**
 * Once the cache is full (its last newcomer pushed an answer out), the chance that a key
 * the doorkeeper lets through is kept ("q-LRU"). Where more answers are asked for than it
 * holds, such as a crawl through random cursors, each newcomer would push out an answer
 * as likely to be asked for, at the cost of keeping it: its copy, its indexes, and the
 * garbage collector's work, as it outlives the young generation and then dies in the old
 * one, whose collections then stop every request for milliseconds. Kept one time in
 * sixteen, the entries churn sixteen times less for as many hits, and an answer asked for
 * often still enters within its next sixteen misses or so, ahead of those asked for
 * rarely. While the cache has room (at the start, or as writes drop entries), every key
 * the doorkeeper lets through is kept.
 * @see https://arxiv.org/abs/1307.6702 (Martina, Garetto, Leonardi: q-LRU)
 */
const KEPT_WHEN_FULL = 1 / 16

export class ResponseCache {
  readonly #entries: LRUCache<string, Entry>
  readonly #seenOnce = new Set<string>()
  readonly #seenOnceMaxBytes: number
  #seenOnceBytes = 0
  #version: DataVersion | undefined
  /** The keys of the answers made from anything, which go when the version moves. */
  readonly #fromAnything = new Set<string>()
  /** The keys of the answers made from one row, by table and id. */
  readonly #byRow = new Map<string, Map<bigint, RowKeys>>()
  /** The keys of the answers made from a page of rows, by table. */
  readonly #pages = new Map<string, Set<string>>()
  /** The readings applied that had changes (or did not know them). */
  #generation = 0
  /** The latest changes applied, each with the generation it came in. */
  #log: Array<{ generation: number, change: RowChange }> = []
  /** Every change applied after this generation is in the log. */
  #loggedAfter = 0
  readonly #lookups = new WeakMap<Reading, Lookup>()
  /** The last entry to go was pushed out by a newcomer, not dropped: the cache is full. */
  #full = false

  /** `random` draws the newcomers kept when full (Math.random; a test's own to be exact). */
  constructor (private readonly reader: DataVersionReader, maxBytes: number, private readonly random = Math.random) {
    this.#seenOnceMaxBytes = Math.floor(maxBytes * SEEN_ONCE_SHARE)
    this.#entries = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (entry, key) => key.length + entryBytes(entry),
      // Called as an entry goes, whatever the reason (dropped, pushed out, replaced).
      dispose: (entry, key, reason) => {
        if (reason === 'evict') this.#full = true
        else if (reason === 'delete') this.#full = false
        this.#unindex(key, entry)
      }
    })
  }

  /**
   * Whether the version is read with a query that waits on the database (PostgreSQL), and
   * so within the request's deadline, or in this process (SQLite).
   */
  get waitsOnDatabase (): boolean {
    return this.reader.waitsOnDatabase
  }

  /** Reads the database, and drops what the reading says may have changed. */
  async version (): Promise<Lookup> {
    const reading = await this.reader.read()
    let lookup = this.#lookups.get(reading)
    if (lookup === undefined) {
      this.#apply(reading)
      lookup = { version: reading.version, generation: this.#generation }
      this.#lookups.set(reading, lookup)
    }
    return lookup
  }

  /** The answer kept for `key` that `lookup`, which `version()` just gave, may be served. */
  get (key: string, lookup: Lookup): CachedAnswer | undefined {
    const entry = this.#entries.get(key)
    if (entry === undefined) return undefined
    return entry.reads !== undefined || entry.version === lookup.version ? entry : undefined
  }

  /**
   * Whether an answer for `key`, which missed, is worth keeping: true from its second miss
   * on, and once the cache is full, one time in sixteen of those (KEPT_WHEN_FULL). Asked
   * before the answer is encoded, so a page read once, or not kept, costs nothing extra.
   */
  admits (key: string): boolean {
    if (this.#seenOnce.has(key)) {
      // Refused, it stays remembered: its next miss draws again.
      if (this.#full && this.random() >= KEPT_WHEN_FULL) return false
      this.#seenOnce.delete(key)
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

  /**
   * Keeps an answer whose query ran after `lookup` was read, made from the rows `reads`
   * (from anything when undefined), unless something it was made from may have changed
   * since that reading.
   */
  keep (key: string, lookup: Lookup, answer: CachedAnswer, reads?: readonly Read[]): void {
    if (reads === undefined || reads.length === 0) {
      if (lookup.version === this.#version) this.#set(flat(key), entry(answer, undefined, lookup.version))
      return
    }
    if (lookup.generation < this.#loggedAfter) return
    for (let i = this.#log.length - 1; i >= 0 && this.#log[i]!.generation > lookup.generation; i--) {
      const { change } = this.#log[i]!
      if (reads.some((read) => affects(change, read))) return
    }
    this.#set(flat(key), entry(answer, reads, lookup.version))
  }

  get size (): number {
    return this.#entries.size
  }

  /** What the entries are counted as costing, in bytes: the memory they take, near enough. */
  get bytes (): number {
    return this.#entries.calculatedSize
  }

  /** Whether the cache is full: its last entry to go was pushed out by a newcomer. */
  get full (): boolean {
    return this.#full
  }

  /** What the keys seen once are counted as costing, in bytes; at most an eighth of the size. */
  get seenOnceBytes (): number {
    return this.#seenOnceBytes
  }

  #apply (reading: Reading): void {
    if (reading.version !== this.#version) {
      this.#version = reading.version
      for (const key of [...this.#fromAnything]) this.#entries.delete(key)
    }
    const { changes } = reading
    if (changes === undefined) {
      this.#generation++
      this.#entries.clear()
      this.#log = []
      this.#loggedAfter = this.#generation
    } else if (changes.length > 0) {
      this.#generation++
      this.#drop(changes)
      for (const change of changes) this.#log.push({ generation: this.#generation, change })
      if (this.#log.length > LOGGED_CHANGES) {
        const forgotten = this.#log.splice(0, this.#log.length - LOGGED_CHANGES)
        this.#loggedAfter = forgotten.at(-1)!.generation
      }
    }
  }

  /** Drops the answers made from a row that changed. */
  #drop (changes: readonly RowChange[]): void {
    for (const change of changes) {
      const ofTable = this.#byRow.get(change.table)
      if (ofTable === undefined) continue
      const keys = change.id === EVERY_ROW ? [...ofTable.values()].flatMap(keysOf) : keysOf(ofTable.get(change.id))
      for (const key of keys) this.#entries.delete(key)
    }
    for (const [table, keys] of this.#pages) {
      const ofTable = changes.filter((change) => change.table === table)
      if (ofTable.length === 0) continue
      for (const key of [...keys]) {
        const reads = this.#entries.peek(key)?.reads
        if (reads?.some((read) => ofTable.some((change) => affects(change, read))) === true) this.#entries.delete(key)
      }
    }
  }

  #set (key: string, entry: Entry): void {
    this.#entries.set(key, entry)
    // An answer larger than the whole cache is not kept.
    if (this.#entries.peek(key) !== entry) return
    if (entry.reads === undefined) {
      this.#fromAnything.add(key)
      return
    }
    for (const read of entry.reads) {
      if ('id' in read) {
        let ofTable = this.#byRow.get(read.table)
        if (ofTable === undefined) this.#byRow.set(read.table, ofTable = new Map())
        addKey(ofTable, read.id, key)
      } else {
        let keys = this.#pages.get(read.table)
        if (keys === undefined) this.#pages.set(read.table, keys = new Set())
        keys.add(key)
      }
    }
  }

  #unindex (key: string, entry: Entry): void {
    if (entry.reads === undefined) {
      this.#fromAnything.delete(key)
      return
    }
    for (const read of entry.reads) {
      if ('id' in read) {
        const ofTable = this.#byRow.get(read.table)
        if (ofTable !== undefined) removeKey(ofTable, read.id, key)
      } else {
        this.#pages.get(read.table)?.delete(key)
      }
    }
  }
}

/**
 * The entry for `answer`, its fields written out: a spread (`{ ...answer, reads }`) makes an
 * object several times the size, in every entry the cache holds.
 */
function entry ({ body, etag, headers }: CachedAnswer, reads: readonly Read[] | undefined, version: DataVersion): Entry {
  // A copy, of their length: the array the handler pushed them to has room for more.
  return { body, etag, headers, reads: reads?.slice(), version }
}

/**
 * What an entry holds beside its strings' characters, in bytes, as V8 lays it out: the
 * entry, its strings' headers and its slots in the LRU (ENTRY_BYTES); for each row it was
 * read from, the read and its place in the index (READ_BYTES); and a headers object of its
 * own. Counted so that the cache's size is the memory it takes, near enough.
 */
const ENTRY_BYTES = 350
const READ_BYTES = 130
const HEADERS_BYTES = 64

function entryBytes ({ body, etag, headers, reads }: Entry): number {
  let bytes = ENTRY_BYTES + body.length + etag.length + (reads?.length ?? 0) * READ_BYTES
  for (const name in headers) bytes += HEADERS_BYTES + name.length + headers[name]!.length
  return bytes
}

/**
 * The keys of the answers made from one row: the key alone, as for most rows (a pet's own
 * answer), or a Set once there are several; a Set each would cost more than the key.
 */
type RowKeys = string | Set<string>

function addKey (ofTable: Map<bigint, RowKeys>, id: bigint, key: string): void {
  const keys = ofTable.get(id)
  if (keys === undefined) ofTable.set(id, key)
  else if (typeof keys !== 'string') keys.add(key)
  else if (keys !== key) ofTable.set(id, new Set([keys, key]))
}

function removeKey (ofTable: Map<bigint, RowKeys>, id: bigint, key: string): void {
  const keys = ofTable.get(id)
  if (keys === key) ofTable.delete(id)
  else if (typeof keys === 'object') {
    keys.delete(key)
    if (keys.size === 0) ofTable.delete(id)
  }
}

function keysOf (keys: RowKeys | undefined): string[] {
  return keys === undefined ? [] : typeof keys === 'string' ? [keys] : [...keys]
}

/** A key is ASCII (./key.ts): its length is its bytes. */
function seenOnceCost (key: string): number {
  return key.length + SEEN_ONCE_ENTRY_BYTES
}
