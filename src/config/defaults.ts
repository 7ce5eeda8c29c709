/**
 * Every default setting, once. The environment schema (./config.ts) and `buildApp`
 * (../app.ts) both read them here, so the app a test builds and the one production runs
 * cannot quietly differ.
 */
export const DEFAULTS = {
  port: 3000,
  host: '127.0.0.1',
  databaseUrl: './data/petstore.db',
  /**
   * The database, but for its URL. sqliteSynchronous FULL: every acknowledged commit
   * survives power loss. sqliteMmapBytes: how much of a SQLite file is read through a
   * memory map (docs/performance.md, reads at 1M pets). poolSize: PostgreSQL connections
   * per instance.
   *
   * Then how long the database may take before a request is answered 503 instead.
   * PostgreSQL: connecting (or waiting for a pooled connection), one statement (the server
   * cancels it; the client gives up a second later, for a server that does not answer at
   * all), a session idle inside a transaction (the server ends it, releasing its locks),
   * and the delay before TCP keepalive probes an idle connection. SQLite: a write waiting on
   * a lock another process holds, without blocking the event loop; a statement blocking the
   * thread on a lock, never in the service (command-line scripts may wait); and how often
   * SQLite's WAL is checked, to be checkpointed into the main file once writes have paused
   * that long.
   */
  database: {
    sqliteSynchronous: 'FULL',
    sqliteMmapBytes: 256 * 1024 * 1024,
    poolSize: 10,
    connectTimeoutMs: 2000,
    statementTimeoutMs: 5000,
    idleInTransactionTimeoutMs: 10_000,
    keepAliveDelayMs: 10_000,
    lockTimeoutMs: 1000,
    blockingWaitMs: 0,
    idleCheckpointMs: 10_000
  },
  /** A Redis command slower than this counts as Redis failing (rate limits then count in memory). */
  redisCommandTimeoutMs: 200,
  /** The metrics listener's address: not HOST, so a public API never exposes its metrics. */
  metricsHost: '127.0.0.1',
  /**
   * How long the metrics listener keeps an idle connection: short, since a scrape comes
   * every 15 s or more and a new connection on the private network is cheap.
   */
  metricsKeepAliveMs: 5000,
  logLevel: 'info',
  logFormat: 'auto',
  bodyLimit: 16 * 1024,
  rateLimit: { perKey: 1000, anonymous: 60, windowMs: 60_000 },
  trustProxy: false,
  /** responseMs: an operation not answered by then (a stalled database) gets 503 `unavailable`. */
  timeouts: { requestMs: 30_000, headersMs: 10_000, keepAliveMs: 72_000, connectionMs: 120_000, shutdownGraceMs: 10_000, responseMs: 6000 },
  /** 0 turns a check off. Event-loop utilization near 1 is normal at full load, so it is off. */
  pressure: { maxEventLoopDelayMs: 200, maxEventLoopUtilization: 0, maxHeapUsedBytes: 0, retryAfterSeconds: 5, sampleIntervalMs: 1000 },
  /** Bytes of encoded answers the response cache keeps (0 turns it off). */
  responseCacheBytes: 4 * 1024 * 1024,
  /** How often the changed pets and orders no cache needs any more are deleted. */
  rowChangesPruneIntervalMs: 5000,
  /** How often database keys are reloaded and their last use written. */
  keySyncIntervalMs: 1000,
  /** How long the first answer to an Idempotency-Key is kept, and how often expired ones go. */
  idempotency: { ttlMs: 24 * 60 * 60 * 1000, cleanupIntervalMs: 60_000 },
  /**
   * Events: how long they are kept, and how often expired ones go; how many feed readers
   * may wait at once (`wait`), per instance; how often, besides after writes, committed
   * events are numbered (PostgreSQL) and waiting readers look for events written elsewhere;
   * the least time between two numbering passes under a flow of writes (PostgreSQL: how much
   * later an event may join the feed, to share a pass with the others of those milliseconds).
   */
  events: { retentionDays: 30, retentionIntervalMs: 60 * 60 * 1000, maxWaiting: 1000, pollIntervalMs: 1000, passGapMs: 10 },
  /**
   * Webhooks: the waits before each retry (10 attempts over about three days), how long an
   * attempt may take, how many endpoints there may be, how many attempts are under way at
   * once in all (an equal share for each endpoint) and per endpoint at most (so a slow
   * endpoint holds only its own share); how long a claim on a delivery lasts beyond
   * the attempt's timeout (then another instance may take it over); under a flow of writes,
   * the least time between two looks for due deliveries while none are found; the least
   * time between two claims while the API's requests keep the service busy (deliveries
   * then take less of it); how long an endpoint may fail every delivery before it is
   * disabled; how often due deliveries are looked for besides after writes.
   */
  webhooks: {
    retryDelays: '5s,5m,30m,2h,5h,10h,14h,20h,24h',
    timeoutMs: 15_000,
    maxEndpoints: 50,
    concurrency: 64,
    endpointConcurrency: 16,
    leaseMarginMs: 15_000,
    claimGapMs: 10,
    busyClaimGapMs: 50,
    disableAfterMs: 5 * 24 * 60 * 60 * 1000,
    pollIntervalMs: 1000
  }
} as const
