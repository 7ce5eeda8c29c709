/**
 * Webhooks, as `app.webhooks`: what the endpoints' handlers need (the allowed networks, the
 * key that seals secrets) and the dispatcher (./dispatcher.ts), started with the service and
 * stopped with it.
 *
 * The dispatcher looks for due deliveries after every write this instance answers, when the
 * feed moves (events numbered, here or on another instance: the events plugin's signal), and
 * every second for the retries that come due; every answer tells it how busy the requests
 * keep the service (./request-pressure.ts).
 */
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { WebhookSettings } from '../../config/settings.ts'
import type { Network } from '../../config/values.ts'
import type { Lookup } from './addresses.ts'
import { pendingBacklog } from './deliveries.ts'
import { Dispatcher } from './dispatcher.ts'
import { sealingKeyIds } from './endpoints.ts'
import { RequestPressure } from './request-pressure.ts'
import { openSecret, sealSecret } from './sealing.ts'
import { defaultKeyFile, secretsKeySource } from './secrets-key.ts'

export interface Webhooks {
  allowedNetworks: readonly Network[]
  lookup: Lookup | undefined
  /** Endpoints there may be at most (`WEBHOOK_MAX_ENDPOINTS`). */
  maxEndpoints: number
  /** Resolves once no claim runs and no attempt is under way. */
  settled: () => Promise<void>
}

/**
 * What must not be stored in the clear, sealed with the key of ./secrets-key.ts: webhook
 * secrets, and a kept answer that holds one (../idempotency/idempotent.ts).
 */
export interface Secrets {
  seal: (text: string) => Promise<string>
  /** Throws saying why a sealed text cannot be opened (another key, altered). */
  open: (sealed: string) => Promise<string>
}

declare module 'fastify' {
  interface FastifyInstance {
    webhooks: Webhooks
    secrets: Secrets
  }
}

export interface WebhooksOptions extends WebhookSettings {
  databaseUrl: string
  /** Whether the API's requests keep the service busy (tests give their own). */
  busy?: () => boolean
  /** Resolves host names for the URL checks and the deliveries (tests give their own). */
  lookup?: Lookup
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

export default fp(async function webhooks (app: FastifyInstance, options: WebhooksOptions) {
  // A key that does not open the stored secrets stops the start here (./secrets-key.ts).
  const secretsKey = await secretsKeySource({
    key: options.secretsKey,
    file: options.secretsKeyFile ?? defaultKeyFile(options.databaseUrl),
    storedKeyIds: async () => sealingKeyIds(app.db, new Date())
  })
  const pressure = new RequestPressure()
  const dispatcher = new Dispatcher(app.db, {
    busy: () => pressure.busy(),
    ...options,
    secretsKey,
    serialize: (event) => app.events.serialize(event),
    log: app.log,
    attempted: (result) => app.prometheus?.webhookAttempted(result.succeeded, result.durationMs / 1000)
  })
  app.prometheus?.watchWebhookBacklog(async () => pendingBacklog(app.db, new Date()))

  app.addHook('onResponse', (request, _reply, done) => {
    pressure.answered()
    if (WRITES.has(request.method)) dispatcher.poke()
    done()
  })
  // Events numbered anywhere, or a second gone by: claims to make.
  let stopped = false
  const { signal } = app.events
  async function follow (): Promise<void> {
    // Until the signal closes (the service stopping), or the service is closed without it.
    for (;;) {
      if (stopped || signal.closed) return
      await signal.after(signal.generation, options.pollIntervalMs)
      dispatcher.poke()
    }
  }
  let following: Promise<void> | undefined
  app.addHook('onReady', async () => {
    // What was due before the start (left by a stop, or a crash), within the first second.
    following = follow()
  })

  app.decorate('webhooks', {
    allowedNetworks: options.allowedNetworks,
    lookup: options.lookup,
    maxEndpoints: options.maxEndpoints,
    settled: () => dispatcher.settled()
  })
  app.decorate('secrets', {
    async seal (text) { return sealSecret(await secretsKey(), text) },
    async open (sealed) { return openSecret(await secretsKey(), sealed) }
  } satisfies Secrets)

  app.addHook('onClose', async () => {
    stopped = true
    await following
    await dispatcher.close()
  })
}, { name: 'webhooks', dependencies: ['database', 'events'] })
