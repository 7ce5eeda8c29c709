/**
 * Events, as `app.events`: each serialized with its type's envelope schema, and what keeps
 * the feed moving.
 * - PostgreSQL: a numbering pass (./sequencer.ts) after every write this instance answers,
 *   and every second; a `LISTEN` (./listener.ts) for the passes of every instance.
 * - Waiting readers (./waiting.ts) are told of new events by those, by this instance's own
 *   writes on SQLite, and by a poll of the last number given, every second (another
 *   process writing the same SQLite file, a `LISTEN` connection lost).
 * - Retention (./retention.ts): expired events go every hour, and at start.
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { sql } from 'kysely'
import type { EventSettings } from '../../config/settings.ts'
import type { ApiDocument } from '../../contract/document.ts'
import { envelopeSerializers, eventReadScopes, type EventEnvelope } from '../../contract/webhooks.ts'
import { poolOf } from '../../database/connect.ts'
import { listenForEvents } from './listener.ts'
import { deleteExpiredEvents } from './retention.ts'
import { Sequencer } from './sequencer.ts'
import { ChangeSignal } from './signal.ts'

export interface Events {
  /** The event as its type's envelope schema serializes it: JSON text. */
  serialize: (event: EventEnvelope) => string
  /** The scope a key needs to read each event type, besides `events:read` (./readable.ts). */
  readScopes: ReadonlyMap<string, string>
  /** Tells waiting readers that events may have committed. */
  signal: ChangeSignal
  /**
   * Admits one more waiting reader for the API key `owner` (its hash): its release; 'full'
   * when `maxWaiting` already wait, 'owner' when that key holds its share already.
   */
  enterWaiting: (owner: string) => (() => void) | 'full' | 'owner'
  maxWaiting: number
  /** Readers one API key may have waiting at once: a tenth of `maxWaiting`, at least one. */
  maxWaitingPerKey: number
  /** Readers waiting now. */
  readonly waiting: number
  /**
   * Resolves once the feed's work in the background is done: a numbering pass asked for by
   * the writes answered so far, its notification heard, a retention run. What a test waits
   * for before it counts queries, or expects the data version to stay.
   */
  settled: () => Promise<void>
}

declare module 'fastify' {
  interface FastifyInstance {
    events: Events
  }
}

export interface EventsOptions extends EventSettings {
  document: ApiDocument
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export default fp(async function events (app: FastifyInstance, options: EventsOptions) {
  const serializers = envelopeSerializers(options.document)
  app.decorateRequest('readableEvents', undefined)
  const signal = new ChangeSignal()
  let waiting = 0
  // So that one key cannot hold every place: readers wait for what others write.
  const maxWaitingPerKey = Math.max(1, Math.floor(options.maxWaiting / 10))
  const waitingByKey = new Map<string, number>()

  const pool = poolOf(app.db)
  const sequencer = pool === undefined
    ? undefined
    : new Sequencer(pool, options.passGapMs, () => signal.notify(), (error) => app.log.warn({ err: error }, 'could not number committed events; retrying'))
  const listener = pool === undefined
    ? undefined
    : listenForEvents(pool, () => signal.notify(), (error) => app.log.warn({ err: error }, 'lost the connection that listens for events; reconnecting'))

  // After the answer to a write, its transaction has committed (or rolled back). A hook with
  // a callback: it runs after every answer, reads the hottest, and needs no promise there.
  app.addHook('onResponse', (request, _reply, done) => {
    if (WRITES.has(request.method)) {
      if (sequencer === undefined) signal.notify()
      else sequencer.poke()
    }
    done()
  })

  // The highest number in the feed: moves with every event committed, by any process or
  // instance (read from the end of the unique index). Read even while no one waits, so that
  // a reader who starts waiting has it to compare with.
  const lastGiven = async () => String((await sql<{ last: unknown }>`select max(sequence) as last from events`.execute(app.db)).rows[0]?.last)
  let lastSeen = await lastGiven()
  async function poll (): Promise<void> {
    sequencer?.poke()
    const last = await lastGiven()
    if (last !== lastSeen) signal.notify()
    lastSeen = last
  }
  const poller = setInterval(() => {
    poll().catch((error: unknown) => app.log.warn({ err: error }, 'could not look for new events'))
  }, options.pollIntervalMs).unref()

  async function expire (): Promise<void> {
    const cutoff = new Date(Date.now() - options.retentionDays * 24 * 60 * 60 * 1000)
    const deleted = await deleteExpiredEvents(app.db, cutoff)
    if (deleted > 0) app.log.info({ deleted, before: cutoff.toISOString() }, 'expired events deleted')
  }
  let expiring: Promise<void> | undefined
  const expireSafely = () => {
    expiring = expire().catch((error: unknown) => app.log.warn({ err: error }, 'could not delete expired events'))
  }
  const retention = setInterval(expireSafely, options.retentionIntervalMs).unref()
  app.addHook('onReady', async () => { expireSafely() })

  app.decorate('events', {
    serialize (event: EventEnvelope): string {
      const serializer = serializers.get(event.type)
      if (serializer === undefined) throw new Error(`no envelope schema for event type ${event.type}: the document no longer declares it`)
      return serializer(event)
    },
    readScopes: eventReadScopes(options.document),
    signal,
    enterWaiting (owner) {
      if (waiting >= options.maxWaiting) return 'full'
      const held = waitingByKey.get(owner) ?? 0
      if (held >= maxWaitingPerKey) return 'owner'
      waiting++
      waitingByKey.set(owner, held + 1)
      let released = false
      return () => {
        if (released) return
        released = true
        waiting--
        const left = waitingByKey.get(owner)! - 1
        if (left === 0) waitingByKey.delete(owner)
        else waitingByKey.set(owner, left)
      }
    },
    maxWaiting: options.maxWaiting,
    maxWaitingPerKey,
    get waiting () { return waiting },
    async settled () {
      // A write's onResponse hook may still be on its way.
      await new Promise((resolve) => setImmediate(resolve))
      await expiring
      await sequencer?.settled()
      // And this instance has heard its own passes' NOTIFY, and what that wakes (the
      // webhooks' look) has started, a turn later.
      if (listener !== undefined) {
        await listener.heardAll()
        await new Promise((resolve) => setImmediate(resolve))
      }
    }
  })

  // Waiting readers answer before the server waits for its connections to end.
  app.addHook('preClose', async () => { signal.close() })
  app.addHook('onClose', async () => {
    clearInterval(poller)
    clearInterval(retention)
    await listener?.close()
    await sequencer?.idle()
  })
}, { name: 'events', dependencies: ['database'] })
