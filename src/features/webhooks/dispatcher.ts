/**
 * The worker that delivers webhooks, one in each instance (docs/decisions.md#delivery).
 *
 * It claims due deliveries (./claims.ts) and attempts each outside any transaction
 * (./attempt.ts), then records the outcome. Claims run one at a time, when asked for (a
 * write answered, events numbered on any instance, an attempt done, and every second for
 * the retries come due), and each takes only what the free places allow: each enabled
 * endpoint has an equal part of `concurrency`, at least one attempt and at most
 * `endpointConcurrency` (./claims.ts), and its own connections (./attempt.ts). So a slow or
 * hanging endpoint holds its own places and never another's, and no request of the API
 * waits on any of it. While the API's requests keep the service busy, claims come at most every
 * `busyClaimGapMs`, so that deliveries take less of what the requests need.
 *
 * At least once: an attempt is recorded after it is made, so a crash between the two
 * makes it again (its lease passes, and any instance claims it), with the same
 * `webhook-id`. A service stopping ends its attempts and lets their claims go at once.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import type { Kysely } from 'kysely'
import type { FastifyBaseLogger } from 'fastify'
import type { Database } from '../../database/schema.ts'
import type { EventEnvelope } from '../../contract/webhooks.ts'
import { toEnvelope } from '../events/repository.ts'
import type { Network } from '../../config/values.ts'
import type { Lookup } from './addresses.ts'
import { attemptDelivery, ConnectionPools, type AttemptResult } from './attempt.ts'
import { claimDue, recordFailure, recordSuccesses, releaseClaims, type Claim, type Claimed, type Outcome } from './claims.ts'
import { retryDelay } from './retries.ts'
import { openSecret, type SecretsKey } from './sealing.ts'
import type { SecretsKeySource } from './secrets-key.ts'
import { webhookHeaders } from './signature.ts'
import { tracedAttempt } from './traced-attempt.ts'
import { inRootContext } from '../../tracing/trace-context.ts'
import { batchPerTurn } from '../../database/batch-per-turn.ts'

export interface DispatcherOptions {
  timeoutMs: number
  retryDelaysMs: readonly number[]
  allowedNetworks: readonly Network[]
  lookup?: Lookup
  concurrency: number
  endpointConcurrency: number
  /** The least time between two looks for due deliveries in a row, while none are found. */
  claimGapMs: number
  /** Whether the API's requests keep the service busy (./request-pressure.ts). */
  busy?: () => boolean
  /** While they do, the least time between two claims. */
  busyClaimGapMs: number
  /** How long a claim outlives its attempt's timeout. */
  leaseMarginMs: number
  disableAfterMs: number
  secretsKey: SecretsKeySource
  serialize: (event: EventEnvelope) => string
  log: FastifyBaseLogger
  /** Told of each attempt made (metrics). */
  attempted?: (result: AttemptResult) => void
}

/** At most this many secrets kept opened (`Dispatcher.#open`). */
const OPENED_SECRETS = 1024

/** At most this many successes recorded by one statement. */
const SUCCESS_BATCH = 500

export class Dispatcher {
  #running: Promise<void> | undefined
  #again = false
  #closed = false
  #inFlight = new Map<string, Claimed>()
  #perEndpoint = new Map<string, number>()
  #attempts = new Set<Promise<void>>()
  /** Whether the last claim took deliveries: while they flow, the next claims without a look first. */
  #flowing = false
  /**
   * The endpoints' secrets, opened, by the key and the sealed form they were opened from:
   * opening one (AES-GCM) at each attempt cost a large share of a delivery's CPU. Emptied
   * when full; a secret rotated is sealed anew, under another name here.
   */
  readonly #opened = new Map<string, string>()
  readonly #abort = new AbortController()
  readonly #successes: (outcome: Outcome) => Promise<void>
  readonly #pools: ConnectionPools

  constructor (private readonly db: Kysely<Database>, private readonly options: DispatcherOptions) {
    // The outcomes that come while a batch is written make up the next: under a flow of
    // deliveries, one write for many; alone, one each. No request caused them: no trace.
    this.#successes = batchPerTurn(async (outcomes) => {
      await recordSuccesses(db, outcomes)
      return outcomes.map(() => undefined)
    }, { oneAtATime: true, most: SUCCESS_BATCH, traced: false })
    this.#pools = new ConnectionPools(options.endpointConcurrency)
  }

  /** Deliveries may be due: a claim soon. */
  poke (): void {
    if (this.#closed) return
    if (this.#running !== undefined) {
      this.#again = true
      return
    }
    // Woken by a request, but no part of it: outside its trace.
    this.#running = inRootContext(async () => this.#run()).finally(() => { this.#running = undefined })
  }

  /** Resolves once no claim runs and no attempt is under way (what a test waits for). */
  async settled (): Promise<void> {
    while (this.#running !== undefined || this.#attempts.size > 0) {
      await this.#running
      await Promise.all([...this.#attempts])
    }
  }

  /** Stops: no more claims; the attempts under way end, and their claims go. */
  async close (): Promise<void> {
    this.#closed = true
    await this.#running
    const unfinished = [...this.#inFlight.values()].map((claimed) => claimed.id)
    this.#abort.abort()
    await Promise.all([...this.#attempts])
    this.#pools.close()
    await releaseClaims(this.db, unfinished).catch((error: unknown) => {
      this.options.log.warn({ err: error }, 'could not let the webhook deliveries under way go; another instance takes them once their claims pass')
    })
  }

  async #run (): Promise<void> {
    do {
      this.#again = false
      // Requests first: while they keep the service busy, deliveries go at a slower pace,
      // at most `concurrency` a claim, and catch up once the requests let them.
      if (this.options.busy?.() === true) await sleep(this.options.busyClaimGapMs)
      if (this.#closed) return
      let claim: Claim
      try {
        claim = await this.#claim()
      } catch (error) {
        // The next demand or the next second tries again; nothing is lost meanwhile.
        this.options.log.warn({ err: error }, 'could not claim due webhook deliveries; retrying')
        return
      }
      const { claimed } = claim
      this.#flowing = claimed.length > 0
      for (const delivery of claimed) this.#start(delivery)
      // An endpoint that took every place it had may have more due.
      if (claim.full) this.#again = true
      // Asked again meanwhile: while deliveries flow, claim on at once (after the event
      // loop's turn, which gathers the demands); while there are none, under a flow of
      // writes, look at most every `claimGapMs`, as the look is a query of its own.
      if (this.#again) await (claimed.length > 0 ? new Promise((resolve) => setImmediate(resolve)) : sleep(this.options.claimGapMs))
    } while (this.#again && !this.#closed)
  }

  async #claim (): Promise<Claim> {
    const now = new Date()
    return claimDue(this.db, {
      now,
      leaseUntil: new Date(now.getTime() + this.options.timeoutMs + this.options.leaseMarginMs),
      concurrency: this.options.concurrency,
      perEndpoint: this.options.endpointConcurrency,
      underWay: this.#perEndpoint,
      flowing: this.#flowing
    })
  }

  #start (delivery: Claimed): void {
    const key = String(delivery.id)
    const endpoint = String(delivery.endpointId)
    this.#inFlight.set(key, delivery)
    this.#perEndpoint.set(endpoint, (this.#perEndpoint.get(endpoint) ?? 0) + 1)
    // The endpoint's place is free once its attempt is answered: the record is the
    // database's work, not the endpoint's.
    let left = false
    const leave = () => {
      if (left) return
      left = true
      const others = this.#perEndpoint.get(endpoint)! - 1
      if (others === 0) this.#perEndpoint.delete(endpoint)
      else this.#perEndpoint.set(endpoint, others)
      this.poke()
    }
    const attempt = this.#deliver(delivery, leave)
      .catch((error: unknown) => {
        this.options.log.error({ err: error, deliveryId: key }, 'a webhook delivery could not be made or recorded; it is attempted again once its claim passes')
      })
      .finally(() => {
        this.#attempts.delete(attempt)
        this.#inFlight.delete(key)
        leave()
      })
    this.#attempts.add(attempt)
  }

  #open (key: SecretsKey, sealed: string): string {
    const name = `${key.id} ${sealed}`
    let secret = this.#opened.get(name)
    if (secret === undefined) {
      secret = openSecret(key, sealed)
      if (this.#opened.size >= OPENED_SECRETS) this.#opened.clear()
      this.#opened.set(name, secret)
    }
    return secret
  }

  /**
   * A delivery whose secret this service cannot open (sealed with another key, altered):
   * nothing is sent, and it fails at once, with no retry, as no retry could sign it before
   * someone acts: the endpoint's secret rotated, `recover` sends what it missed.
   */
  async #unreadable (delivery: Claimed, error: unknown): Promise<void> {
    this.#inFlight.delete(String(delivery.id))
    const effect = await recordFailure(this.db, {
      id: delivery.id,
      endpointId: delivery.endpointId,
      eventId: delivery.event.id,
      attempt: delivery.attempt,
      firstAttempt: delivery.firstAttempt,
      attemptedAt: new Date(),
      error: 'secret_unreadable',
      durationMs: 0,
      gone: false,
      disableAfterMs: this.options.disableAfterMs
    })
    this.options.log.error({
      err: error,
      webhookEndpointId: String(delivery.endpointId),
      eventId: delivery.event.id,
      attempt: delivery.attempt,
      error: 'secret_unreadable'
    }, `webhook delivery failed: the endpoint's secret cannot be opened with this service's key; rotate the secret, then recover what it missed${effect === 'disabled' ? '; the endpoint is disabled' : ''}`)
  }

  async #deliver (delivery: Claimed, answered: () => void): Promise<void> {
    let secrets: string[]
    try {
      const key = await this.options.secretsKey()
      secrets = delivery.secrets.map((sealed) => this.#open(key, sealed))
    } catch (error) {
      await this.#unreadable(delivery, error)
      return
    }
    const body = this.options.serialize(toEnvelope(delivery.event))
    const attemptedAt = new Date()
    const headers = webhookHeaders(secrets, delivery.event.id, attemptedAt, body)
    const url = new URL(delivery.url)
    const result = await tracedAttempt(delivery, url, headers, async (headers) => attemptDelivery(url, headers, body, {
      pools: this.#pools.of(String(delivery.endpointId)),
      timeoutMs: this.options.timeoutMs,
      allowed: this.options.allowedNetworks,
      lookup: this.options.lookup,
      signal: this.#abort.signal
    }))
    // Stopping: the attempt was cut short, and is made again after the restart.
    if (this.#abort.signal.aborted) return
    answered()
    this.options.attempted?.(result)
    const outcome: Outcome = {
      id: delivery.id,
      endpointId: delivery.endpointId,
      eventId: delivery.event.id,
      attempt: delivery.attempt,
      firstAttempt: delivery.firstAttempt,
      attemptedAt,
      status: result.status,
      error: result.error,
      durationMs: Math.round(result.durationMs)
    }
    this.#inFlight.delete(String(delivery.id))
    if (result.succeeded) {
      await this.#successes(outcome)
      return
    }
    const retryIn = retryDelay(this.options.retryDelaysMs, delivery.attempt - delivery.firstAttempt + 1, Math.random, result.retryAfterMs)
    const effect = await recordFailure(this.db, {
      ...outcome,
      retryAt: retryIn === undefined ? undefined : new Date(attemptedAt.getTime() + result.durationMs + retryIn),
      gone: result.status === 410,
      disableAfterMs: this.options.disableAfterMs
    })
    this.options.log.warn({
      webhookEndpointId: String(delivery.endpointId),
      eventId: delivery.event.id,
      attempt: delivery.attempt,
      error: result.error,
      responseStatus: result.status,
      durationMs: outcome.durationMs,
      nextAttemptIn: effect === 'none' ? retryIn : undefined
    }, effect === 'disabled' ? 'webhook delivery failed; the endpoint is disabled' : 'webhook delivery failed')
  }
}
