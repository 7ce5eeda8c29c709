/**
 * The environment, validated once into a typed Config: every setting of the service, by
 * area. Usable from scripts as well as the server. A bad value stops the start with a
 * message naming the variable.
 *
 * Each variable (its type, bounds, default and meaning) is declared once, in ./schema.ts;
 * the settings no variable sets, in ./fixed.ts; the shape of each area, which buildApp's
 * options share, in ./settings.ts.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import standaloneCode from 'ajv/dist/standalone/index.js'
import { FIXED } from './fixed.ts'
import { ENVIRONMENT, type Env } from './schema.ts'
import type {
  DatabaseSettings, EventSettings, EventStreamSettings, IdempotencySettings, LogSettings, PressureSettings, RateLimitSettings, TimeoutSettings,
  TracingSettings, WebhookSettings
} from './settings.ts'
import { instrumentationEnabled, tracingRequested } from './tracing.ts'
import { parseApiKeys, parseNetworks, parseRetryDelays, parseTrustProxy, secretsKeyBytes, type TrustProxy } from './values.ts'

export interface Config {
  port: number
  host: string
  database: DatabaseSettings
  /** Keys accepted besides those in the database. */
  apiKeys: string[]
  log: LogSettings
  /** Largest accepted request body, in bytes. */
  bodyLimit: number
  /** Shared rate-limit store for several instances; in-process when absent. */
  redisUrl: string | undefined
  /** A Redis command slower than this counts as Redis failing. */
  redisCommandTimeoutMs: number
  rateLimit: RateLimitSettings
  trustProxy: TrustProxy
  timeouts: TimeoutSettings
  pressure: PressureSettings
  /** Where Prometheus metrics are served, on a listener of their own; undefined: off. */
  metricsPort: number | undefined
  metricsHost: string
  /** How long the metrics listener keeps an idle connection. */
  metricsKeepAliveMs: number
  tracing: TracingSettings
  /** Bytes of encoded answers the response cache keeps; 0 turns it off. */
  responseCacheBytes: number
  /** How often changed rows no reader needs any more are deleted (../database/row-changes.ts). */
  rowChangesPruneIntervalMs: number
  /** How often database keys are reloaded and their last use written. */
  keySyncIntervalMs: number
  idempotency: IdempotencySettings
  events: EventSettings
  eventStream: EventStreamSettings
  webhooks: WebhookSettings
}

/** A value a function parses, or the start stops naming the variable. */
function parsedAs<T> (name: string, parse: (text: string) => T, text: string): T {
  try {
    return parse(text)
  } catch (error) {
    throw new Error(`${name}: ${(error as Error).message}`)
  }
}

const MIB = 2 ** 20

/**
 * The Config of a validated environment, and of `raw`, the whole of it, for the OTEL_*
 * variables (./tracing.ts). Throws naming a variable whose value says nothing valid.
 */
export function configFrom (env: Env, raw: NodeJS.ProcessEnv): Config {
  const apiKeys = parsedAs('PETSTORE_API_KEYS', parseApiKeys, env.PETSTORE_API_KEYS)
  // Checked here, so that a bad key stops the start as the other variables do.
  if (env.WEBHOOK_SECRETS_KEY !== '') secretsKeyBytes(env.WEBHOOK_SECRETS_KEY, 'WEBHOOK_SECRETS_KEY')
  if (env.HEADERS_TIMEOUT_MS > env.REQUEST_TIMEOUT_MS) {
    throw new Error('HEADERS_TIMEOUT_MS must not be larger than REQUEST_TIMEOUT_MS')
  }
  return {
    port: env.PORT,
    host: env.HOST,
    database: {
      url: env.DATABASE_URL,
      sqliteSynchronous: env.SQLITE_SYNCHRONOUS,
      sqliteMmapBytes: env.SQLITE_MMAP_MB * MIB,
      poolSize: env.DATABASE_POOL_SIZE,
      connectTimeoutMs: env.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: env.DATABASE_STATEMENT_TIMEOUT_MS,
      idleInTransactionTimeoutMs: env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
      keepAliveDelayMs: env.DATABASE_KEEPALIVE_MS,
      lockTimeoutMs: env.SQLITE_LOCK_TIMEOUT_MS,
      ...FIXED.database
    },
    apiKeys,
    log: { level: env.LOG_LEVEL, format: env.LOG_FORMAT },
    bodyLimit: env.BODY_LIMIT,
    redisUrl: env.REDIS_URL === '' ? undefined : env.REDIS_URL,
    redisCommandTimeoutMs: env.REDIS_COMMAND_TIMEOUT_MS,
    rateLimit: { perKey: env.RATE_LIMIT_MAX, anonymous: env.RATE_LIMIT_ANON_MAX, ...FIXED.rateLimit },
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    timeouts: {
      requestMs: env.REQUEST_TIMEOUT_MS,
      headersMs: env.HEADERS_TIMEOUT_MS,
      keepAliveMs: env.KEEP_ALIVE_TIMEOUT_MS,
      connectionMs: env.CONNECTION_TIMEOUT_MS,
      shutdownGraceMs: env.SHUTDOWN_GRACE_MS,
      responseMs: env.RESPONSE_TIMEOUT_MS
    },
    pressure: {
      maxEventLoopDelayMs: env.MAX_EVENT_LOOP_DELAY_MS,
      maxEventLoopUtilization: env.MAX_EVENT_LOOP_UTILIZATION,
      maxHeapUsedBytes: env.MAX_HEAP_USED_BYTES,
      ...FIXED.pressure
    },
    // Set empty, it was read as null (./schema.ts): unset, as the table says.
    metricsPort: env.METRICS_PORT ?? undefined,
    metricsHost: env.METRICS_HOST,
    metricsKeepAliveMs: FIXED.metricsKeepAliveMs,
    tracing: { enabled: tracingRequested(raw), sqliteStatements: instrumentationEnabled(raw, 'better-sqlite3') },
    responseCacheBytes: Math.round(env.RESPONSE_CACHE_MB * MIB),
    rowChangesPruneIntervalMs: FIXED.rowChangesPruneIntervalMs,
    keySyncIntervalMs: FIXED.keySyncIntervalMs,
    idempotency: { ...FIXED.idempotency },
    events: { retentionDays: env.EVENT_RETENTION_DAYS, maxWaiting: env.EVENT_WAIT_MAX_READERS, ...FIXED.events },
    eventStream: {
      url: env.EVENT_STREAM_URL === '' ? undefined : env.EVENT_STREAM_URL,
      topic: env.EVENT_STREAM_TOPIC,
      streamName: env.EVENT_STREAM_NAME,
      source: env.EVENT_STREAM_SOURCE,
      ...FIXED.eventStream
    },
    webhooks: {
      allowedNetworks: parsedAs('WEBHOOK_ALLOWED_NETWORKS', parseNetworks, env.WEBHOOK_ALLOWED_NETWORKS),
      retryDelaysMs: parsedAs('WEBHOOK_RETRY_DELAYS', parseRetryDelays, env.WEBHOOK_RETRY_DELAYS),
      timeoutMs: env.WEBHOOK_TIMEOUT_MS,
      maxEndpoints: env.WEBHOOK_MAX_ENDPOINTS,
      concurrency: env.WEBHOOK_CONCURRENCY,
      endpointConcurrency: env.WEBHOOK_ENDPOINT_CONCURRENCY,
      secretsKey: env.WEBHOOK_SECRETS_KEY === '' ? undefined : env.WEBHOOK_SECRETS_KEY,
      secretsKeyFile: env.WEBHOOK_SECRETS_KEY_FILE === '' ? undefined : env.WEBHOOK_SECRETS_KEY_FILE,
      ...FIXED.webhooks
    }
  }
}

/**
 * Ajv as env-schema sets it up: strings coerced to the declared types, defaults filled in,
 * unknown variables dropped, every error reported. Used directly: env-schema made an Ajv
 * instance of its own when imported and another on each call, and each compiled Ajv's
 * meta-schema, some 50 ms of every start. validateSchema: false for the same reason: the
 * compiler checks the schema (./schema.ts), whose type `Env` is. The validator runs once per
 * process, so the code Ajv generates is not optimized (half the compilation's time), and it
 * keeps that code (`source`), for the build to record.
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
 * What the validator checks of the schema: each variable without the words said to people
 * (`description`, `x-default`), which the validator's code would otherwise carry as they
 * are (some 10 kB more code, in the bundle and compiled at every start not the build's).
 */
function validated (schema: typeof ENVIRONMENT) {
  const properties = Object.fromEntries(Object.entries(schema.properties).map(([name, variable]) => {
    const { description, 'x-default': words, ...checked }: Record<string, unknown> = { ...variable }
    return [name, checked]
  }))
  return { ...schema, properties }
}

/** The validator of the environment: one, made once per process. */
function envValidator (precompiled: Precompiled): ValidateFunction<Env> {
  const schema = validated(ENVIRONMENT)
  return precompiled(`environment ${JSON.stringify(schema)}`,
    () => (ajv ??= makeAjv()).compile<Env>(schema),
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
  return configFrom(parsed, env)
}
