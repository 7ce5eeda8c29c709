/**
 * PostgreSQL: `LISTEN petstore_events` on a connection of its own (a pooled one would be
 * handed to queries), so this instance hears at once of events numbered on any instance
 * (./sequencer.ts). A lost connection is opened again a second later; meanwhile the feed's
 * poll (./plugin.ts) still finds new events within a second.
 */
import type pg from 'pg'
import { EVENTS_CHANNEL } from './sequencer.ts'
import { requireDriver } from '../../tracing/require-driver.ts'

const RECONNECT_MS = 1000

export interface Listener {
  /**
   * Resolves once every notification sent before it has been heard: a round trip on the
   * listening connection, which PostgreSQL answers only after delivering those to it.
   */
  heardAll: () => Promise<void>
  close: () => Promise<void>
}

export function listenForEvents (pool: pg.Pool, heard: () => void, failed: (error: Error) => void): Listener {
  let client: pg.Client | undefined
  let closed = false
  let retry: NodeJS.Timeout | undefined
  // Only loading the driver can reject an attempt; the attempt reports its own failures.
  const noDriver = (error: Error) => failed(error)

  async function attempt (): Promise<void> {
    const pg = requireDriver<typeof import('pg').default>('pg')
    const options = pool.options
    const next = new pg.Client({
      connectionString: options.connectionString,
      connectionTimeoutMillis: options.connectionTimeoutMillis,
      keepAlive: true,
      keepAliveInitialDelayMillis: options.keepAliveInitialDelayMillis
    })
    let lost = false
    const lose = (error: Error) => {
      if (lost) return
      lost = true
      if (client === next) client = undefined
      next.end().catch(() => {})
      if (closed) return
      failed(error)
      retry = setTimeout(() => { attempt().catch(noDriver) }, RECONNECT_MS).unref()
    }
    next.on('error', lose)
    next.on('notification', heard)
    try {
      await next.connect()
      await next.query(`listen ${EVENTS_CHANNEL}`)
    } catch (error) {
      lose(error as Error)
      return
    }
    if (closed) {
      await next.end().catch(() => {})
      return
    }
    client = next
    // Anything numbered while no connection listened.
    heard()
  }

  attempt().catch(noDriver)

  return {
    async heardAll () {
      // No connection: nothing is heard until it is back, and the poll covers the gap.
      await client?.query('select 1').catch(() => {})
    },
    async close () {
      closed = true
      clearTimeout(retry)
      await client?.end().catch(() => {})
    }
  }
}
