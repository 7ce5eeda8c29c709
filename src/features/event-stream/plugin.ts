/**
 * Event streams, with `EVENT_STREAM_URL` set: every event published to NATS JetStream or
 * RabbitMQ too, in feed order, by one instance at a time (./publisher.ts). Unset, nothing of
 * it runs, and no broker's client is loaded. The start never waits for the broker: one that
 * is down delays the events, never the service (docs/operating/event-streams.md).
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { EventStreamSettings } from '../../config/settings.ts'
import { openDestination } from './open.ts'
import { backlog } from './positions.ts'
import { Publisher } from './publisher.ts'

export interface EventStream {
  /** The stream or exchange the position is kept under (`nats PETSTORE_EVENTS`). */
  destination: string
  /** This instance's publisher: its position while it holds the lease. */
  publisher: Publisher
}

declare module 'fastify' {
  interface FastifyInstance {
    eventStream: EventStream | undefined
  }
}

export default fp(async function eventStream (app: FastifyInstance, options: EventStreamSettings) {
  if (options.url === undefined) {
    app.decorate('eventStream', undefined)
    return
  }
  const destination = await openDestination({ ...options, url: options.url })
  const publisher = new Publisher(app.db, {
    ...options,
    destination,
    wakeup: app.events.signal,
    serialize: (event) => app.events.serialize(event),
    log: app.log,
    published: (count) => app.prometheus?.eventStreamPublished(count)
  })
  app.prometheus?.watchEventStream(async () => {
    const { count, oldest } = await backlog(app.db, destination.name)
    return { backlog: count, lagSeconds: oldest === undefined ? 0 : Math.max(0, (Date.now() - Date.parse(oldest)) / 1000) }
  })
  app.decorate('eventStream', { destination: destination.name, publisher })
  app.addHook('onReady', async () => { publisher.start() })
  app.addHook('onClose', async () => { await publisher.close() })
}, { name: 'event-stream', dependencies: ['database', 'events'] })
