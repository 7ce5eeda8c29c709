/**
 * The service's settings by area: the shapes Config holds (./config.ts) and buildApp takes
 * as its options (../app.ts), each area the options of the part that uses it. A setting a
 * variable sets is read from the environment (./schema.ts says its meaning and bounds); the
 * others are fixed (./fixed.ts).
 */
import type { LOG_FORMATS, LOG_LEVELS } from './schema.ts'
import type { Network } from './values.ts'

/** What a database is opened with (../database/connect.ts). */
export interface DatabaseSettings {
  /** A SQLite file path, `sqlite:PATH` or `:memory:`; or `postgres://...`. */
  url: string
  /** SQLite `synchronous` pragma; FULL makes every acknowledged commit survive power loss. */
  sqliteSynchronous: 'FULL' | 'NORMAL'
  /** SQLite: bytes of the file read through a memory map; 0 reads it all with read(2). */
  sqliteMmapBytes: number
  /** PostgreSQL connections per instance. */
  poolSize: number
  /** PostgreSQL: connecting, or waiting for a pooled connection. */
  connectTimeoutMs: number
  /**
   * PostgreSQL: one statement, cancelled by the server past it (the client gives up a second
   * later, for a server that does not answer at all).
   */
  statementTimeoutMs: number
  /** PostgreSQL: a session idle inside a transaction is ended by the server past it, releasing its locks. */
  idleInTransactionTimeoutMs: number
  /** PostgreSQL: idle time before TCP keepalive probes a connection. */
  keepAliveDelayMs: number
  /** SQLite: how long a write waits, on timers, for a lock another process holds. */
  lockTimeoutMs: number
  /**
   * SQLite: how long any statement may block the thread waiting on a lock. 0 for the
   * service, which must never block; command-line scripts may wait.
   */
  blockingWaitMs: number
  /** SQLite: how often the WAL is checked, and checkpointed once writes have paused a whole interval. */
  idleCheckpointMs: number
}

export interface LogSettings {
  level: typeof LOG_LEVELS[number]
  format: typeof LOG_FORMATS[number]
}

/** How long a client and an answer may take (../app.ts, ../server.ts). */
export interface TimeoutSettings {
  /** A whole request must arrive within it, and its headers within `headersMs`. */
  requestMs: number
  headersMs: number
  keepAliveMs: number
  connectionMs: number
  /** On SIGTERM or SIGINT, how long in-flight requests may take before the process exits anyway. */
  shutdownGraceMs: number
  /** An operation not answered by then (a stalled database) gets 503 `unavailable`. */
  responseMs: number
}

/** Overload protection (../http/pressure.ts). 0 turns a check off. */
export interface PressureSettings {
  maxEventLoopDelayMs: number
  maxEventLoopUtilization: number
  maxHeapUsedBytes: number
  retryAfterSeconds: number
  /** How often the load is sampled. */
  sampleIntervalMs: number
}

/** Rate limits (../features/rate-limit/plugin.ts). */
export interface RateLimitSettings {
  /** Requests per window for each API key; 0 turns the per-key limit off. */
  perKey: number
  /** Failed or key-less requests per window for each client address. */
  anonymous: number
  windowMs: number
}

/** Idempotency-Key answers (../features/idempotency/plugin.ts). */
export interface IdempotencySettings {
  /** How long the first answer to a key is kept. */
  ttlMs: number
  /** How often expired answers are deleted. */
  cleanupIntervalMs: number
}

/** The events' feed (../features/events/plugin.ts). */
export interface EventSettings {
  /** How long events are kept, and how often expired ones go. */
  retentionDays: number
  retentionIntervalMs: number
  /** Readers that may wait at once (`wait`), per instance. */
  maxWaiting: number
  /** How often a numbering pass runs besides after writes (PostgreSQL), and the poll while readers wait. */
  pollIntervalMs: number
  /** PostgreSQL: the least time between two numbering passes in a row (../features/events/sequencer.ts). */
  passGapMs: number
}

/** Publishing every event to a message broker (../features/event-stream/plugin.ts). */
export interface EventStreamSettings {
  /** `nats://...` or `amqp://...`; undefined: off, and nothing of it loaded. */
  url: string | undefined
  /** NATS: the subject prefix; RabbitMQ: the topic exchange. */
  topic: string
  /** NATS: the JetStream stream. */
  streamName: string
  /** CloudEvents `ce-source`. */
  source: string
  /** How long the publishing instance's lease lasts unless renewed (then another takes over). */
  leaseMs: number
  /** How often an instance that does not publish looks whether the lease is free. */
  standbyPollMs: number
  /** How often, besides the feed's signal, the publisher looks for new events. */
  pollIntervalMs: number
  /** Events published and confirmed together, at most. */
  batchSize: number
  /** After a batch that was not full, the wait before the next, so that a flow of events makes fewer, larger batches. */
  flowGapMs: number
  /** Retries after a failure wait this long at first, doubling up to `retryMaxMs`. */
  retryMinMs: number
  retryMaxMs: number
  /** How long a connection, or a batch's confirmations, may take before it counts as failed. */
  brokerTimeoutMs: number
}

/** Webhook deliveries (../features/webhooks/plugin.ts). */
export interface WebhookSettings {
  /** Networks webhooks may reach besides public addresses (plain http allowed there). */
  allowedNetworks: Network[]
  /** The waits before each retry, in milliseconds. */
  retryDelaysMs: number[]
  /** How long an attempt may take. */
  timeoutMs: number
  /** Endpoints there may be at most. */
  maxEndpoints: number
  /** Attempts under way at once: in all, shared equally among the endpoints; per endpoint at most. */
  concurrency: number
  endpointConcurrency: number
  /** The key that seals webhook secrets, as text; undefined: the key file. */
  secretsKey: string | undefined
  /** Where the key is kept without WEBHOOK_SECRETS_KEY; undefined: beside the database. */
  secretsKeyFile: string | undefined
  /** How long a claim on a delivery lasts beyond the attempt's timeout (then another instance may take it over). */
  leaseMarginMs: number
  /** How long an endpoint may fail every delivery before it is disabled. */
  disableAfterMs: number
  /** Under a flow of writes, the least time between two looks for due deliveries while none are found. */
  claimGapMs: number
  /** The least time between two claims while the API's requests keep the service busy. */
  busyClaimGapMs: number
  /** How often due deliveries are looked for besides after writes. */
  pollIntervalMs: number
}

/**
 * Whether the standard OTEL_* variables ask for traces, and whether SQLite's statements are
 * spans then (./tracing.ts).
 */
export interface TracingSettings {
  enabled: boolean
  sqliteStatements: boolean
}
