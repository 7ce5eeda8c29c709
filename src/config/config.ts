/**
 * The environment, validated once into a typed Config. Usable from scripts as well as the
 * server. A bad value stops the start with a message naming the variable.
 */
import { Ajv, type JSONSchemaType, type ValidateFunction } from 'ajv'
import standaloneCode from 'ajv/dist/standalone/index.js'
import { DEFAULTS } from './defaults.ts'
import { instrumentationEnabled, tracingRequested } from './tracing.ts'
import { parseApiKeys, parseNetworks, parseRetryDelays, parseTrustProxy, secretsKeyBytes, type Network, type TrustProxy } from './values.ts'

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

interface Env {
  PORT: number
  HOST: string
  DATABASE_URL: string
  PETSTORE_API_KEYS: string
  LOG_LEVEL: typeof LOG_LEVELS[number]
  LOG_FORMAT: 'auto' | 'json' | 'pretty'
  BODY_LIMIT: number
  SQLITE_SYNCHRONOUS: 'FULL' | 'NORMAL'
  SQLITE_MMAP_MB: number
  DATABASE_POOL_SIZE: number
  DATABASE_CONNECT_TIMEOUT_MS: number
  DATABASE_STATEMENT_TIMEOUT_MS: number
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: number
  DATABASE_KEEPALIVE_MS: number
  SQLITE_LOCK_TIMEOUT_MS: number
  RESPONSE_TIMEOUT_MS: number
  REDIS_COMMAND_TIMEOUT_MS: number
  METRICS_HOST: string
  REDIS_URL: string
  RATE_LIMIT_MAX: number
  RATE_LIMIT_ANON_MAX: number
  TRUST_PROXY: string
  REQUEST_TIMEOUT_MS: number
  HEADERS_TIMEOUT_MS: number
  KEEP_ALIVE_TIMEOUT_MS: number
  CONNECTION_TIMEOUT_MS: number
  SHUTDOWN_GRACE_MS: number
  MAX_EVENT_LOOP_DELAY_MS: number
  MAX_EVENT_LOOP_UTILIZATION: number
  MAX_HEAP_USED_BYTES: number
  METRICS_PORT?: number
  RESPONSE_CACHE_MB: number
  EVENT_RETENTION_DAYS: number
  EVENT_WAIT_MAX_READERS: number
  WEBHOOK_ALLOWED_NETWORKS: string
  WEBHOOK_RETRY_DELAYS: string
  WEBHOOK_TIMEOUT_MS: number
  WEBHOOK_MAX_ENDPOINTS: number
  WEBHOOK_CONCURRENCY: number
  WEBHOOK_ENDPOINT_CONCURRENCY: number
  WEBHOOK_SECRETS_KEY: string
  WEBHOOK_SECRETS_KEY_FILE: string
}

const schema: JSONSchemaType<Env> = {
  type: 'object',
  required: [],
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: DEFAULTS.port },
    HOST: { type: 'string', minLength: 1, default: DEFAULTS.host },
    DATABASE_URL: { type: 'string', minLength: 1, default: DEFAULTS.databaseUrl },
    PETSTORE_API_KEYS: { type: 'string', default: '' },
    LOG_LEVEL: { type: 'string', enum: [...LOG_LEVELS], default: DEFAULTS.logLevel },
    LOG_FORMAT: { type: 'string', enum: ['auto', 'json', 'pretty'], default: DEFAULTS.logFormat },
    BODY_LIMIT: { type: 'integer', minimum: 1, maximum: 10 * 1024 * 1024, default: DEFAULTS.bodyLimit },
    SQLITE_SYNCHRONOUS: { type: 'string', enum: ['FULL', 'NORMAL'], default: DEFAULTS.database.sqliteSynchronous },
    // SQLite maps at most 2 GiB less 64 KiB (its SQLITE_MAX_MMAP_SIZE on Linux).
    SQLITE_MMAP_MB: { type: 'integer', minimum: 0, maximum: 2047, default: DEFAULTS.database.sqliteMmapBytes / 2 ** 20 },
    DATABASE_POOL_SIZE: { type: 'integer', minimum: 1, maximum: 1000, default: DEFAULTS.database.poolSize },
    DATABASE_CONNECT_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 600_000, default: DEFAULTS.database.connectTimeoutMs },
    DATABASE_STATEMENT_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 600_000, default: DEFAULTS.database.statementTimeoutMs },
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 3_600_000, default: DEFAULTS.database.idleInTransactionTimeoutMs },
    DATABASE_KEEPALIVE_MS: { type: 'integer', minimum: 1000, maximum: 3_600_000, default: DEFAULTS.database.keepAliveDelayMs },
    SQLITE_LOCK_TIMEOUT_MS: { type: 'integer', minimum: 0, maximum: 60_000, default: DEFAULTS.database.lockTimeoutMs },
    RESPONSE_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 600_000, default: DEFAULTS.timeouts.responseMs },
    REDIS_COMMAND_TIMEOUT_MS: { type: 'integer', minimum: 10, maximum: 60_000, default: DEFAULTS.redisCommandTimeoutMs },
    METRICS_HOST: { type: 'string', minLength: 1, default: DEFAULTS.metricsHost },
    REDIS_URL: { type: 'string', default: '', pattern: '^(rediss?://.+)?$' },
    RATE_LIMIT_MAX: { type: 'integer', minimum: 0, default: DEFAULTS.rateLimit.perKey },
    RATE_LIMIT_ANON_MAX: { type: 'integer', minimum: 1, default: DEFAULTS.rateLimit.anonymous },
    TRUST_PROXY: { type: 'string', default: '' },
    REQUEST_TIMEOUT_MS: { type: 'integer', minimum: 1000, default: DEFAULTS.timeouts.requestMs },
    HEADERS_TIMEOUT_MS: { type: 'integer', minimum: 500, default: DEFAULTS.timeouts.headersMs },
    KEEP_ALIVE_TIMEOUT_MS: { type: 'integer', minimum: 1000, default: DEFAULTS.timeouts.keepAliveMs },
    CONNECTION_TIMEOUT_MS: { type: 'integer', minimum: 1000, default: DEFAULTS.timeouts.connectionMs },
    SHUTDOWN_GRACE_MS: { type: 'integer', minimum: 0, default: DEFAULTS.timeouts.shutdownGraceMs },
    MAX_EVENT_LOOP_DELAY_MS: { type: 'integer', minimum: 0, default: DEFAULTS.pressure.maxEventLoopDelayMs },
    MAX_EVENT_LOOP_UTILIZATION: { type: 'number', minimum: 0, maximum: 1, default: DEFAULTS.pressure.maxEventLoopUtilization },
    MAX_HEAP_USED_BYTES: { type: 'integer', minimum: 0, default: DEFAULTS.pressure.maxHeapUsedBytes },
    METRICS_PORT: { type: 'integer', minimum: 0, maximum: 65535, nullable: true },
    RESPONSE_CACHE_MB: { type: 'number', minimum: 0, maximum: 4096, default: DEFAULTS.responseCacheBytes / 2 ** 20 },
    EVENT_RETENTION_DAYS: { type: 'integer', minimum: 1, maximum: 3650, default: DEFAULTS.events.retentionDays },
    EVENT_WAIT_MAX_READERS: { type: 'integer', minimum: 0, maximum: 100_000, default: DEFAULTS.events.maxWaiting },
    WEBHOOK_ALLOWED_NETWORKS: { type: 'string', default: '' },
    WEBHOOK_RETRY_DELAYS: { type: 'string', default: DEFAULTS.webhooks.retryDelays },
    // At most 30 s, so that a claim outlives its attempt and still passes to another
    // instance within a minute of a crash (src/features/webhooks/dispatcher.ts).
    WEBHOOK_TIMEOUT_MS: { type: 'integer', minimum: 100, maximum: 30_000, default: DEFAULTS.webhooks.timeoutMs },
    WEBHOOK_MAX_ENDPOINTS: { type: 'integer', minimum: 1, maximum: 10_000, default: DEFAULTS.webhooks.maxEndpoints },
    WEBHOOK_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 10_000, default: DEFAULTS.webhooks.concurrency },
    WEBHOOK_ENDPOINT_CONCURRENCY: { type: 'integer', minimum: 1, maximum: 1000, default: DEFAULTS.webhooks.endpointConcurrency },
    WEBHOOK_SECRETS_KEY: { type: 'string', default: '' },
    WEBHOOK_SECRETS_KEY_FILE: { type: 'string', default: '' }
  }
}

/** The environment variables the service is configured by (tracing's OTEL_* besides). */
export const SETTINGS: readonly string[] = Object.keys(schema.properties!)

export interface Config {
  port: number
  host: string
  database: {
    url: string
    sqliteSynchronous: 'FULL' | 'NORMAL'
    sqliteMmapBytes: number
    poolSize: number
    connectTimeoutMs: number
    statementTimeoutMs: number
    idleInTransactionTimeoutMs: number
    keepAliveDelayMs: number
    lockTimeoutMs: number
    /** Not from the environment: 0, the service never blocks on a lock; a script sets its own. */
    blockingWaitMs: number
    /** Not from the environment: how often SQLite's WAL is considered for a checkpoint. */
    idleCheckpointMs: number
  }
  responseCacheBytes: number
  /** How long events are kept, and how many feed readers may wait at once. */
  events: { retentionDays: number, maxWaiting: number }
  webhooks: WebhookSettings
  apiKeys: string[]
  log: { level: Env['LOG_LEVEL'], format: Env['LOG_FORMAT'] }
  bodyLimit: number
  /** Shared rate-limit store for several instances; in-process when absent. */
  redisUrl: string | undefined
  redisCommandTimeoutMs: number
  /** Requests per minute: per API key (0: no limit) and per address without a valid key. */
  rateLimit: { perKey: number, anonymous: number }
  trustProxy: TrustProxy
  timeouts: { requestMs: number, headersMs: number, keepAliveMs: number, connectionMs: number, shutdownGraceMs: number, responseMs: number }
  /** 0 turns a check off. */
  pressure: { maxEventLoopDelayMs: number, maxEventLoopUtilization: number, maxHeapUsedBytes: number }
  /** Where Prometheus metrics are served, on a listener of their own; undefined: off. */
  metricsPort: number | undefined
  metricsHost: string
  /** Not from the environment: how long the metrics listener keeps an idle connection. */
  metricsKeepAliveMs: number
  /**
   * Whether the standard OTEL_* variables ask for traces, and whether SQLite's statements are
   * spans then (./tracing.ts).
   */
  tracing: { enabled: boolean, sqliteStatements: boolean }
}

export interface WebhookSettings {
  /** Networks webhooks may reach besides public addresses (plain http allowed there). */
  allowedNetworks: Network[]
  /** The waits before each retry, in milliseconds. */
  retryDelaysMs: number[]
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
}

/** A value a function parses, or the start stops naming the variable. */
function parsedAs<T> (name: string, parse: (text: string) => T, text: string): T {
  try {
    return parse(text)
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}`)
  }
}

/**
 * Ajv as env-schema sets it up: strings coerced to the declared types, defaults filled in,
 * unknown variables dropped, every error reported. Used directly: env-schema made an Ajv
 * instance of its own when imported and another on each call, and each compiled Ajv's
 * meta-schema, some 50 ms of every start. validateSchema: false for the same reason: this
 * fixed schema is checked by the compiler and the tests. And the validator runs once per
 * process, so the code Ajv generates is not optimized (half the compilation's time).
 */
const makeAjv = () => new Ajv({
  allErrors: true, removeAdditional: true, useDefaults: true, coerceTypes: true, allowUnionTypes: true, validateSchema: false, code: { optimize: false, source: true }
})
let ajv: Ajv | undefined
let validateEnv: ValidateFunction<Env> | undefined

/**
 * How a function is made from an input that decides it whole: compiled now, or, given by the
 * server and the build, the build's code when it wrote one (../contract/precompiled.ts),
 * which keeps the compilation out of a start. Given, not imported, so that config/ imports
 * nothing of the rest of the service. `moduleOf` writes a made function's code, for the build.
 */
export type Precompiled = <T>(input: string, compile: () => T, moduleOf: (compiled: T) => string) => T

const compiledNow: Precompiled = (_input, compile) => compile()

/**
 * The validator of the environment. Ajv keeps the code it writes (`source`), so that the
 * build can record it: one validator, made once per process.
 */
function envValidator (precompiled: Precompiled): ValidateFunction<Env> {
  const envSchema = { ...schema, additionalProperties: false }
  return precompiled(`environment ${JSON.stringify(envSchema)}`,
    () => (ajv ??= makeAjv()).compile<Env>(envSchema),
    (validate) => standaloneCode.default(ajv!, validate))
}

/**
 * The Config of `env`; throws naming the first variable that is wrong. Its validator is made
 * on the first call, by `precompiled` (the server's and the build's take the build's code).
 */
export function loadConfig (env: NodeJS.ProcessEnv = process.env, precompiled: Precompiled = compiledNow): Config {
  validateEnv ??= envValidator(precompiled)
  // A copy: validation coerces, fills in and removes in place.
  const parsed: unknown = { ...env }
  if (!validateEnv(parsed)) throw new Error((ajv ??= makeAjv()).errorsText(validateEnv.errors, { dataVar: 'env' }))
  const apiKeys = parsedAs('PETSTORE_API_KEYS', parseApiKeys, parsed.PETSTORE_API_KEYS)
  // Checked here, so that a bad key stops the start as the other variables do.
  if (parsed.WEBHOOK_SECRETS_KEY !== '') secretsKeyBytes(parsed.WEBHOOK_SECRETS_KEY, 'WEBHOOK_SECRETS_KEY')
  if (parsed.HEADERS_TIMEOUT_MS > parsed.REQUEST_TIMEOUT_MS) {
    throw new Error('HEADERS_TIMEOUT_MS must not be larger than REQUEST_TIMEOUT_MS')
  }
  return {
    port: parsed.PORT,
    host: parsed.HOST,
    database: {
      url: parsed.DATABASE_URL,
      sqliteSynchronous: parsed.SQLITE_SYNCHRONOUS,
      sqliteMmapBytes: parsed.SQLITE_MMAP_MB * 2 ** 20,
      poolSize: parsed.DATABASE_POOL_SIZE,
      connectTimeoutMs: parsed.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: parsed.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: parsed.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      keepAliveDelayMs: parsed.DATABASE_KEEPALIVE_MS,
      lockTimeoutMs: parsed.SQLITE_LOCK_TIMEOUT_MS,
      blockingWaitMs: DEFAULTS.database.blockingWaitMs,
      idleCheckpointMs: DEFAULTS.database.idleCheckpointMs
    },
    apiKeys,
    log: { level: parsed.LOG_LEVEL, format: parsed.LOG_FORMAT },
    bodyLimit: parsed.BODY_LIMIT,
    redisUrl: parsed.REDIS_URL === '' ? undefined : parsed.REDIS_URL,
    redisCommandTimeoutMs: parsed.REDIS_COMMAND_TIMEOUT_MS,
    rateLimit: { perKey: parsed.RATE_LIMIT_MAX, anonymous: parsed.RATE_LIMIT_ANON_MAX },
    trustProxy: parseTrustProxy(parsed.TRUST_PROXY),
    timeouts: {
      requestMs: parsed.REQUEST_TIMEOUT_MS,
      headersMs: parsed.HEADERS_TIMEOUT_MS,
      keepAliveMs: parsed.KEEP_ALIVE_TIMEOUT_MS,
      connectionMs: parsed.CONNECTION_TIMEOUT_MS,
      shutdownGraceMs: parsed.SHUTDOWN_GRACE_MS,
      responseMs: parsed.RESPONSE_TIMEOUT_MS
    },
    pressure: {
      maxEventLoopDelayMs: parsed.MAX_EVENT_LOOP_DELAY_MS,
      maxEventLoopUtilization: parsed.MAX_EVENT_LOOP_UTILIZATION,
      maxHeapUsedBytes: parsed.MAX_HEAP_USED_BYTES
    },
    metricsPort: parsed.METRICS_PORT,
    metricsHost: parsed.METRICS_HOST,
    metricsKeepAliveMs: DEFAULTS.metricsKeepAliveMs,
    tracing: { enabled: tracingRequested(env), sqliteStatements: instrumentationEnabled(env, 'better-sqlite3') },
    responseCacheBytes: Math.round(parsed.RESPONSE_CACHE_MB * 2 ** 20),
    events: { retentionDays: parsed.EVENT_RETENTION_DAYS, maxWaiting: parsed.EVENT_WAIT_MAX_READERS },
    webhooks: {
      allowedNetworks: parsedAs('WEBHOOK_ALLOWED_NETWORKS', parseNetworks, parsed.WEBHOOK_ALLOWED_NETWORKS),
      retryDelaysMs: parsedAs('WEBHOOK_RETRY_DELAYS', parseRetryDelays, parsed.WEBHOOK_RETRY_DELAYS),
      timeoutMs: parsed.WEBHOOK_TIMEOUT_MS,
      maxEndpoints: parsed.WEBHOOK_MAX_ENDPOINTS,
      concurrency: parsed.WEBHOOK_CONCURRENCY,
      endpointConcurrency: parsed.WEBHOOK_ENDPOINT_CONCURRENCY,
      secretsKey: parsed.WEBHOOK_SECRETS_KEY === '' ? undefined : parsed.WEBHOOK_SECRETS_KEY,
      secretsKeyFile: parsed.WEBHOOK_SECRETS_KEY_FILE === '' ? undefined : parsed.WEBHOOK_SECRETS_KEY_FILE
    }
  }
}
