/**
 * The settings no environment variable sets, once: fixed for the service, while tests (through
 * buildApp's options) and scripts (through connect's) may change some. With the variables'
 * defaults (./schema.ts) they make DEFAULTS (./defaults.ts).
 */
export const FIXED = {
  /**
   * SQLite: no statement blocks the thread waiting on a lock, in the service (command-line
   * scripts may wait); and how often the WAL is checked, to be checkpointed into the main
   * file once writes have paused that long.
   */
  database: { blockingWaitMs: 0, idleCheckpointMs: 10_000 },
  /**
   * How long the metrics listener keeps an idle connection: short, since a scrape comes
   * every 15 s or more and a new connection on the private network is cheap.
   */
  metricsKeepAliveMs: 5000,
  /** The rate limits count per minute. */
  rateLimit: { windowMs: 60_000 },
  /** An overloaded service says when to come back; and how often the load is sampled. */
  pressure: { retryAfterSeconds: 5, sampleIntervalMs: 1000 },
  /** How often the changed pets and orders no cache needs any more are deleted. */
  rowChangesPruneIntervalMs: 5000,
  /** How often database keys are reloaded and their last use written. */
  keySyncIntervalMs: 1000,
  /** How long the first answer to an Idempotency-Key is kept, and how often expired ones go. */
  idempotency: { ttlMs: 24 * 60 * 60 * 1000, cleanupIntervalMs: 60_000 },
  /**
   * Events: how often expired ones go; how often, besides after writes, committed events
   * are numbered (PostgreSQL) and waiting readers look for events written elsewhere; the
   * least time between two numbering passes under a flow of writes (PostgreSQL: how much
   * later an event may join the feed, to share a pass with the others of those milliseconds).
   */
  events: { retentionIntervalMs: 60 * 60 * 1000, pollIntervalMs: 1000, passGapMs: 10 },
  /**
   * Webhooks: how long a claim on a delivery lasts beyond the attempt's timeout (then
   * another instance may take it over); under a flow of writes, the least time between two
   * looks for due deliveries while none are found; the least time between two claims while
   * the API's requests keep the service busy (deliveries then take less of it); how long an
   * endpoint may fail every delivery before it is disabled; how often due deliveries are
   * looked for besides after writes.
   */
  /**
   * Event streams: a lease short enough that another instance takes over within seconds
   * of a crash, renewed well before it ends; under a flow of events, batches gathered over
   * a few milliseconds (the lag they add is well under the goal); retries that back off to a few seconds, so a
   * broker that comes back is used again soon without being hammered while it is down.
   */
  eventStream: {
    leaseMs: 5000,
    standbyPollMs: 1000,
    pollIntervalMs: 1000,
    batchSize: 256,
    flowGapMs: 10,
    retryMinMs: 200,
    retryMaxMs: 5000,
    brokerTimeoutMs: 5000
  },
  webhooks: { leaseMarginMs: 15_000, claimGapMs: 10, busyClaimGapMs: 50, disableAfterMs: 5 * 24 * 60 * 60 * 1000, pollIntervalMs: 1000 }
} as const
