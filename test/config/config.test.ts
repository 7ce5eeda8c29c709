import t from 'tap'
import { loadConfig } from '../../src/config/config.ts'
import { DEFAULTS } from '../../src/config/defaults.ts'
import { parseNetworks } from '../../src/config/values.ts'
import { AUTH, build } from '../helpers/app.ts'

/** The settings no variable sets (src/config/fixed.ts), whatever the environment. */
const NOT_FROM_THE_ENVIRONMENT = {
  rowChangesPruneIntervalMs: 5000,
  keySyncIntervalMs: 1000,
  idempotency: { ttlMs: 24 * 60 * 60 * 1000, cleanupIntervalMs: 60_000 }
}
const NOT_FROM_THE_ENVIRONMENT_EVENTS = { retentionIntervalMs: 60 * 60 * 1000, pollIntervalMs: 1000, passGapMs: 10 }
const NOT_FROM_THE_ENVIRONMENT_EVENT_STREAM = {
  leaseMs: 5000, standbyPollMs: 1000, pollIntervalMs: 1000, batchSize: 256, flowGapMs: 10, retryMinMs: 200, retryMaxMs: 5000, brokerTimeoutMs: 5000
}
const NOT_FROM_THE_ENVIRONMENT_WEBHOOKS = { leaseMarginMs: 15_000, claimGapMs: 10, busyClaimGapMs: 50, disableAfterMs: 5 * 24 * 60 * 60 * 1000, pollIntervalMs: 1000 }

t.test('defaults', async (t) => {
  t.same(loadConfig({}), {
    port: 3000,
    host: '127.0.0.1',
    database: {
      url: './data/petstore.db',
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
    apiKeys: [],
    log: { level: 'info', format: 'auto' },
    bodyLimit: 16384,
    redisUrl: undefined,
    redisCommandTimeoutMs: 200,
    rateLimit: { perKey: 1000, anonymous: 60, windowMs: 60_000 },
    trustProxy: false,
    timeouts: { requestMs: 30_000, headersMs: 10_000, keepAliveMs: 72_000, connectionMs: 120_000, shutdownGraceMs: 10_000, responseMs: 6000 },
    pressure: { maxEventLoopDelayMs: 200, maxEventLoopUtilization: 0, maxHeapUsedBytes: 0, retryAfterSeconds: 5, sampleIntervalMs: 1000 },
    responseCacheBytes: 4 * 1024 * 1024,
    ...NOT_FROM_THE_ENVIRONMENT,
    events: { retentionDays: 30, maxWaiting: 1000, ...NOT_FROM_THE_ENVIRONMENT_EVENTS },
    eventStream: { url: undefined, topic: 'petstore.events', streamName: 'PETSTORE_EVENTS', source: '/petstore', ...NOT_FROM_THE_ENVIRONMENT_EVENT_STREAM },
    webhooks: {
      allowedNetworks: [],
      retryDelaysMs: [5000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000],
      timeoutMs: 15_000,
      maxEndpoints: 50,
      concurrency: 64,
      endpointConcurrency: 16,
      secretsKey: undefined,
      secretsKeyFile: undefined,
      ...NOT_FROM_THE_ENVIRONMENT_WEBHOOKS
    },
    metricsHost: '127.0.0.1',
    metricsKeepAliveMs: 5000,
    tracing: { enabled: false, sqliteStatements: true }
  })
})

t.test('the environment\'s defaults and buildApp\'s are the one DEFAULTS object', async (t) => {
  const config = loadConfig({})
  t.strictSame(config, DEFAULTS, 'DEFAULTS is the Config of an environment that sets nothing')
  t.equal(config.bodyLimit, DEFAULTS.bodyLimit)
  t.same(config.rateLimit, DEFAULTS.rateLimit)
  t.same(config.timeouts, DEFAULTS.timeouts)
  t.same(config.pressure, DEFAULTS.pressure)
  const app = await build(t)
  t.equal(app.initialConfig.bodyLimit, DEFAULTS.bodyLimit)
  t.equal(app.server.requestTimeout, DEFAULTS.timeouts.requestMs)
  t.equal(app.initialConfig.keepAliveTimeout, DEFAULTS.timeouts.keepAliveMs)
  t.equal(app.initialConfig.connectionTimeout, DEFAULTS.timeouts.connectionMs)
  t.equal(app.server.headersTimeout, DEFAULTS.timeouts.headersMs)
  const res = await app.inject({ url: '/v1/pets', headers: AUTH })
  t.equal(res.headers['ratelimit-limit'], String(DEFAULTS.rateLimit.perKey))
})

t.test('values from the environment', async (t) => {
  const config = loadConfig({
    PORT: '8080',
    HOST: '0.0.0.0',
    DATABASE_URL: 'sqlite:/var/lib/petstore.db',
    PETSTORE_API_KEYS: ' first-key-0123456789 , second-key-0123456789,',
    LOG_LEVEL: 'warn',
    LOG_FORMAT: 'json',
    BODY_LIMIT: '1024',
    SQLITE_SYNCHRONOUS: 'NORMAL',
    SQLITE_MMAP_MB: '0',
    DATABASE_POOL_SIZE: '25',
    REDIS_URL: 'redis://127.0.0.1:6379/2',
    RATE_LIMIT_MAX: '0',
    RATE_LIMIT_ANON_MAX: '5',
    TRUST_PROXY: '10.0.0.0/8, 192.168.1.1',
    REQUEST_TIMEOUT_MS: '5000',
    HEADERS_TIMEOUT_MS: '2000',
    KEEP_ALIVE_TIMEOUT_MS: '65000',
    CONNECTION_TIMEOUT_MS: '60000',
    SHUTDOWN_GRACE_MS: '3000',
    MAX_EVENT_LOOP_DELAY_MS: '0',
    MAX_EVENT_LOOP_UTILIZATION: '0.95',
    MAX_HEAP_USED_BYTES: '1000000000',
    RESPONSE_CACHE_MB: '0.5',
    EVENT_RETENTION_DAYS: '7',
    EVENT_WAIT_MAX_READERS: '50',
    EVENT_STREAM_URL: 'amqp://petstore:secret@rabbit.internal/prod',
    EVENT_STREAM_TOPIC: 'shop.events',
    EVENT_STREAM_NAME: 'SHOP',
    EVENT_STREAM_SOURCE: 'https://shop.example/petstore',
    DATABASE_CONNECT_TIMEOUT_MS: '1500',
    DATABASE_STATEMENT_TIMEOUT_MS: '4000',
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '8000',
    DATABASE_KEEPALIVE_MS: '30000',
    SQLITE_LOCK_TIMEOUT_MS: '250',
    RESPONSE_TIMEOUT_MS: '5000',
    REDIS_COMMAND_TIMEOUT_MS: '100',
    METRICS_HOST: '10.0.0.5',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8, ::1/128',
    WEBHOOK_RETRY_DELAYS: '500ms, 1s,2m,3h,1d',
    WEBHOOK_TIMEOUT_MS: '2500',
    WEBHOOK_MAX_ENDPOINTS: '5',
    WEBHOOK_CONCURRENCY: '16',
    WEBHOOK_ENDPOINT_CONCURRENCY: '2',
    WEBHOOK_SECRETS_KEY: 'dGVzdC1vbmx5LXdlYmhvb2stc2VjcmV0cy1rZXktMDA=',
    WEBHOOK_SECRETS_KEY_FILE: '/run/secrets/petstore-webhooks.key'
  })
  t.same(config, {
    port: 8080,
    host: '0.0.0.0',
    database: {
      url: 'sqlite:/var/lib/petstore.db',
      sqliteSynchronous: 'NORMAL',
      sqliteMmapBytes: 0,
      poolSize: 25,
      connectTimeoutMs: 1500,
      statementTimeoutMs: 4000,
      idleInTransactionTimeoutMs: 8000,
      keepAliveDelayMs: 30_000,
      lockTimeoutMs: 250,
      blockingWaitMs: 0,
      idleCheckpointMs: 10_000
    },
    apiKeys: ['first-key-0123456789', 'second-key-0123456789'],
    log: { level: 'warn', format: 'json' },
    bodyLimit: 1024,
    redisUrl: 'redis://127.0.0.1:6379/2',
    redisCommandTimeoutMs: 100,
    rateLimit: { perKey: 0, anonymous: 5, windowMs: 60_000 },
    trustProxy: ['10.0.0.0/8', '192.168.1.1'],
    timeouts: { requestMs: 5000, headersMs: 2000, keepAliveMs: 65_000, connectionMs: 60_000, shutdownGraceMs: 3000, responseMs: 5000 },
    pressure: { maxEventLoopDelayMs: 0, maxEventLoopUtilization: 0.95, maxHeapUsedBytes: 1_000_000_000, retryAfterSeconds: 5, sampleIntervalMs: 1000 },
    responseCacheBytes: 512 * 1024,
    ...NOT_FROM_THE_ENVIRONMENT,
    events: { retentionDays: 7, maxWaiting: 50, ...NOT_FROM_THE_ENVIRONMENT_EVENTS },
    eventStream: {
      url: 'amqp://petstore:secret@rabbit.internal/prod', topic: 'shop.events', streamName: 'SHOP', source: 'https://shop.example/petstore', ...NOT_FROM_THE_ENVIRONMENT_EVENT_STREAM
    },
    webhooks: {
      allowedNetworks: parseNetworks('127.0.0.0/8,::1/128'),
      retryDelaysMs: [500, 1000, 120_000, 10_800_000, 86_400_000],
      timeoutMs: 2500,
      maxEndpoints: 5,
      concurrency: 16,
      endpointConcurrency: 2,
      secretsKey: 'dGVzdC1vbmx5LXdlYmhvb2stc2VjcmV0cy1rZXktMDA=',
      secretsKeyFile: '/run/secrets/petstore-webhooks.key',
      ...NOT_FROM_THE_ENVIRONMENT_WEBHOOKS
    },
    metricsHost: '10.0.0.5',
    metricsKeepAliveMs: 5000,
    tracing: { enabled: false, sqliteStatements: true }
  })

  t.equal(loadConfig({ TRUST_PROXY: 'true' }).trustProxy, true)
  t.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2, 'a hop count')
  t.equal(loadConfig({}).metricsPort, undefined, 'metrics are off unless asked for')
  t.equal(loadConfig({ METRICS_PORT: '9464' }).metricsPort, 9464)
  t.equal(loadConfig({ METRICS_PORT: '' }).metricsPort, undefined, 'set empty: off')
  t.equal(loadConfig({ EVENT_STREAM_URL: '' }).eventStream.url, undefined, 'no event stream set empty')
  t.equal(loadConfig({ EVENT_STREAM_URL: 'nats://127.0.0.1:4222' }).eventStream.url, 'nats://127.0.0.1:4222')
  t.equal(loadConfig({ DATABASE_URL: 'postgres://petstore@db.internal/petstore' }).database.url, 'postgres://petstore@db.internal/petstore')
})

t.test('a bad value stops the start with a message naming the variable', async (t) => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'eighty' }, /PORT must be integer/],
    [{ PORT: '70000' }, /PORT must be <= 65535/],
    [{ METRICS_PORT: 'yes' }, /METRICS_PORT must be integer/],
    [{ EVENT_RETENTION_DAYS: '0' }, /EVENT_RETENTION_DAYS must be >= 1/],
    [{ EVENT_WAIT_MAX_READERS: 'many' }, /EVENT_WAIT_MAX_READERS must be integer/],
    [{ EVENT_STREAM_URL: 'kafka://broker:9092' }, /EVENT_STREAM_URL must match pattern/],
    [{ EVENT_STREAM_URL: 'nats://' }, /EVENT_STREAM_URL must match pattern/],
    [{ EVENT_STREAM_TOPIC: 'petstore.*' }, /EVENT_STREAM_TOPIC must match pattern/],
    [{ EVENT_STREAM_TOPIC: 'petstore..events' }, /EVENT_STREAM_TOPIC must match pattern/],
    [{ EVENT_STREAM_NAME: 'PET.STORE' }, /EVENT_STREAM_NAME must match pattern/],
    [{ EVENT_STREAM_SOURCE: '' }, /EVENT_STREAM_SOURCE must NOT have fewer than 1 characters/],
    [{ WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1' }, /^WEBHOOK_ALLOWED_NETWORKS: not a network in CIDR notation \(such as 127.0.0.0\/8 or ::1\/128\): 127.0.0.1$/],
    [{ WEBHOOK_RETRY_DELAYS: '5s,soon' }, /^WEBHOOK_RETRY_DELAYS: not a duration .*: soon$/],
    [{ WEBHOOK_TIMEOUT_MS: '60000' }, /WEBHOOK_TIMEOUT_MS must be <= 30000/],
    [{ WEBHOOK_CONCURRENCY: '0' }, /WEBHOOK_CONCURRENCY must be >= 1/],
    [{ WEBHOOK_SECRETS_KEY: 'hunter2' }, /^WEBHOOK_SECRETS_KEY must be 32 random bytes in base64 \(openssl rand -base64 32\)$/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be equal to one of the allowed values/],
    [{ BODY_LIMIT: '0' }, /BODY_LIMIT must be >= 1/],
    [{ SQLITE_SYNCHRONOUS: 'OFF' }, /SQLITE_SYNCHRONOUS must be equal to one of the allowed values/],
    [{ SQLITE_MMAP_MB: '4096' }, /SQLITE_MMAP_MB must be <= 2047/],
    [{ SQLITE_MMAP_MB: '-1' }, /SQLITE_MMAP_MB must be >= 0/],
    [{ DATABASE_URL: '' }, /DATABASE_URL must NOT have fewer than 1 characters/],
    [{ DATABASE_POOL_SIZE: '0' }, /DATABASE_POOL_SIZE must be >= 1/],
    [{ DATABASE_CONNECT_TIMEOUT_MS: 'soon' }, /DATABASE_CONNECT_TIMEOUT_MS must be integer/],
    [{ DATABASE_STATEMENT_TIMEOUT_MS: '0' }, /DATABASE_STATEMENT_TIMEOUT_MS must be >= 100/],
    [{ DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: '-5' }, /DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS must be >= 100/],
    [{ DATABASE_KEEPALIVE_MS: '10' }, /DATABASE_KEEPALIVE_MS must be >= 1000/],
    [{ SQLITE_LOCK_TIMEOUT_MS: '120000' }, /SQLITE_LOCK_TIMEOUT_MS must be <= 60000/],
    [{ RESPONSE_TIMEOUT_MS: '1.5' }, /RESPONSE_TIMEOUT_MS must be integer/],
    [{ REDIS_COMMAND_TIMEOUT_MS: '0' }, /REDIS_COMMAND_TIMEOUT_MS must be >= 10/],
    [{ METRICS_HOST: '' }, /METRICS_HOST must NOT have fewer than 1 characters/],
    [{ PETSTORE_API_KEYS: 'short' }, /^PETSTORE_API_KEYS: each key must be at least 16 characters/],
    [{ LOG_FORMAT: 'xml' }, /LOG_FORMAT must be equal to one of the allowed values/],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL must match pattern/],
    [{ RATE_LIMIT_MAX: '-1' }, /RATE_LIMIT_MAX must be >= 0/],
    [{ RATE_LIMIT_ANON_MAX: '0' }, /RATE_LIMIT_ANON_MAX must be >= 1/],
    [{ MAX_EVENT_LOOP_UTILIZATION: '1.5' }, /MAX_EVENT_LOOP_UTILIZATION must be <= 1/],
    [{ HEADERS_TIMEOUT_MS: '20000', REQUEST_TIMEOUT_MS: '10000' }, /^HEADERS_TIMEOUT_MS must not be larger than REQUEST_TIMEOUT_MS$/]
  ]
  for (const [env, message] of cases) {
    t.throws(() => loadConfig(env), { message }, JSON.stringify(env))
  }
})
