/**
 * The environment the service is configured by: one JSON Schema, from which come the type of
 * the environment (`Env`, inferred by json-schema-to-ts), its validation (./config.ts, by
 * Ajv), the defaults (./defaults.ts) and the table of docs/operating/configuration.md
 * (`npm run docs:config`).
 *
 * Each variable says its type and bounds, its default, and its meaning for an operator: its
 * `description` is the table's "meaning" (Markdown, its links relative to that page). The
 * table shows the default as it is, none for an empty text, or in words where the schema
 * gives them (`x-default`). A value that is more than a number or a word is read into what
 * the service uses by ./values.ts.
 *
 * A plain object, not one built at run time (TypeBox's builders): what reads it loads no
 * library, and the type costs nothing past the compiler.
 */
import type { ExtendedJSONSchema, FromExtendedSchema } from 'json-schema-to-ts'
import { INSTRUMENTATIONS, TRACE_DESTINATIONS } from './tracing.ts'

/** What the schema says besides JSON Schema: the default in words, for the table. */
type Annotations = { 'x-default': string }

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const

/** The variables, in the table's order. */
export const ENVIRONMENT = {
  type: 'object',
  additionalProperties: false,
  properties: {
    PORT: { type: 'integer', minimum: 0, maximum: 65535, default: 3000, description: 'listening port' },
    HOST: { type: 'string', minLength: 1, default: '127.0.0.1', description: 'listening address (`0.0.0.0` in containers)' },

    DATABASE_URL: {
      type: 'string',
      minLength: 1,
      default: './data/petstore.db',
      description: 'a SQLite file path (or `sqlite:PATH`), created and migrated at start; or ' +
        '`postgres://USER@HOST/DB` for PostgreSQL, migrated at start ' +
        '([Storage](database.md#storage))'
    },
    DATABASE_POOL_SIZE: { type: 'integer', minimum: 1, maximum: 1000, default: 10, description: 'PostgreSQL connections per instance' },
    DATABASE_CONNECT_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 600_000,
      default: 2000,
      description: 'PostgreSQL: connecting, or waiting for a free pooled connection; past it, 503 ' +
        '`unavailable`'
    },
    DATABASE_STATEMENT_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 600_000,
      default: 5000,
      description: 'PostgreSQL: one statement; the server cancels it past this, and the service ' +
        'gives up on a server that does not answer a second later (503)'
    },
    DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 3_600_000,
      default: 10_000,
      description: 'PostgreSQL: the server ends a session left idle inside a transaction, releasing ' +
        'its locks (an `Idempotency-Key` is then free again)'
    },
    DATABASE_KEEPALIVE_MS: {
      type: 'integer',
      minimum: 1000,
      maximum: 3_600_000,
      default: 10_000,
      description: 'PostgreSQL: idle time before TCP keepalive probes a connection, so a dead peer ' +
        'is found'
    },
    SQLITE_LOCK_TIMEOUT_MS: {
      type: 'integer',
      minimum: 0,
      maximum: 60_000,
      default: 1000,
      description: 'SQLite: how long a write waits, without blocking other requests, on a lock ' +
        'another process holds (the keys command, a backup, the `sqlite3` shell); past it, 503'
    },
    SQLITE_SYNCHRONOUS: {
      enum: ['FULL', 'NORMAL'],
      default: 'FULL',
      description: '`FULL`: every acknowledged write survives a crash or power loss; `NORMAL`: ' +
        'faster, survives a process crash but may lose the last writes on power loss'
    },
    // SQLite maps at most 2 GiB less 64 KiB (its SQLITE_MAX_MMAP_SIZE on Linux).
    SQLITE_MMAP_MB: {
      type: 'integer',
      minimum: 0,
      maximum: 2047,
      default: 256,
      description: 'SQLite: how much of the database file is read through a memory map, which keeps ' +
        'reads of a large database nearly as fast as of a small one; mapped pages count in RSS ' +
        'once read ([Performance](../performance.md#the-memory-map)). `0` reads with `read(2)`: ' +
        'for a file on a network filesystem, or where a read error must be a 503 rather than end ' +
        'the process'
    },

    RESPONSE_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 600_000,
      default: 6000,
      description: 'an operation whose answer is not ready by then (a stalled database) gets 503 ' +
        '`unavailable` with `Retry-After`'
    },
    RESPONSE_CACHE_MB: {
      type: 'number',
      minimum: 0,
      maximum: 4096,
      default: 4,
      description: 'memory for the response cache of reads, per instance, on SQLite and PostgreSQL ' +
        '([Performance](../performance.md#the-response-cache)); `0` turns it off'
    },
    PETSTORE_API_KEYS: {
      type: 'string',
      default: '',
      description: 'comma-separated keys accepted besides those in the database (at least 16 ' +
        'characters each; each holds every scope)'
    },
    LOG_LEVEL: { enum: LOG_LEVELS, default: 'info', description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace` or `silent`' },
    LOG_FORMAT: {
      enum: LOG_FORMATS,
      default: 'auto',
      description: '`json` (one JSON object a line), `pretty` (human-readable), or `auto`: pretty ' +
        'on a terminal, JSON otherwise'
    },
    BODY_LIMIT: {
      type: 'integer',
      minimum: 1,
      maximum: 10 * 1024 * 1024,
      default: 16 * 1024,
      description: 'largest request body in bytes; larger answers 413'
    },

    RATE_LIMIT_MAX: {
      type: 'integer',
      minimum: 0,
      default: 1000,
      description: 'requests per minute per API key; `0` turns the per-key limit off'
    },
    RATE_LIMIT_ANON_MAX: {
      type: 'integer',
      minimum: 1,
      default: 60,
      description: 'failed key checks (or key-less requests) per minute per client address; past ' +
        'it, the address gets 429 whatever key it sends'
    },
    REDIS_URL: {
      type: 'string',
      pattern: '^(rediss?://.+)?$',
      default: '',
      description: '`redis://...`: share rate-limit counts between instances; the start fails if it ' +
        'does not answer'
    },
    REDIS_COMMAND_TIMEOUT_MS: {
      type: 'integer',
      minimum: 10,
      maximum: 60_000,
      default: 200,
      description: 'a Redis command slower than this counts as Redis failing: the connection is ' +
        'dropped and the instance counts in its own memory until a new one answers'
    },
    TRUST_PROXY: {
      type: 'string',
      default: '',
      'x-default': 'off',
      description: 'behind proxies: their number (`1`) or comma-separated addresses/CIDRs, so the ' +
        'client address comes from `X-Forwarded-For` ([Health, limits and ' +
        'overload](README.md#health-limits-and-overload)); `true` trusts any `X-Forwarded-For` and ' +
        'is unsafe'
    },

    REQUEST_TIMEOUT_MS: {
      type: 'integer',
      minimum: 1000,
      default: 30_000,
      description: 'a whole request must arrive within this time, else 408 and the connection is ' +
        'closed (on the metrics listener too)'
    },
    HEADERS_TIMEOUT_MS: {
      type: 'integer',
      minimum: 500,
      default: 10_000,
      description: 'the request headers must arrive within this time (slow-loris guard; on the ' +
        'metrics listener too); at most `REQUEST_TIMEOUT_MS`'
    },
    KEEP_ALIVE_TIMEOUT_MS: {
      type: 'integer',
      minimum: 1000,
      default: 72_000,
      description: 'how long an idle keep-alive connection stays open; keep it above your load ' +
        "balancer's idle timeout"
    },
    CONNECTION_TIMEOUT_MS: {
      type: 'integer',
      minimum: 1000,
      default: 120_000,
      description: 'a socket with no activity at all for this long is closed'
    },
    SHUTDOWN_GRACE_MS: {
      type: 'integer',
      minimum: 0,
      default: 10_000,
      description: 'on SIGTERM/SIGINT, how long in-flight requests may take before the process ' +
        'exits anyway (with code 1) ([Shutdown](README.md#shutdown))'
    },

    MAX_EVENT_LOOP_DELAY_MS: {
      type: 'integer',
      minimum: 0,
      default: 200,
      description: 'above this event-loop delay, requests get 503 `unavailable`; `0` turns the ' +
        'check off'
    },
    MAX_EVENT_LOOP_UTILIZATION: {
      type: 'number',
      minimum: 0,
      maximum: 1,
      default: 0,
      'x-default': '`0` (off)',
      description: 'above this event-loop utilization (0 to 1), requests get 503'
    },
    MAX_HEAP_USED_BYTES: {
      type: 'integer',
      minimum: 0,
      default: 0,
      'x-default': '`0` (off)',
      description: 'above this heap size, requests get 503'
    },

    // nullable: set empty (`METRICS_PORT=`), it is null, and so unset (./config.ts).
    METRICS_PORT: {
      type: 'integer',
      minimum: 0,
      maximum: 65535,
      nullable: true,
      'x-default': 'unset (off)',
      description: 'serve Prometheus metrics at `http://METRICS_HOST:METRICS_PORT/metrics`, on a ' +
        'listener of their own ([Metrics](observability.md#metrics))'
    },
    METRICS_HOST: {
      type: 'string',
      minLength: 1,
      default: '127.0.0.1',
      description: "the metrics listener's address, apart from `HOST`, so an API served on every " +
        'interface does not expose its metrics'
    },

    EVENT_RETENTION_DAYS: {
      type: 'integer',
      minimum: 1,
      maximum: 3650,
      default: 30,
      description: 'how long events are kept ([Events](../api/events-and-webhooks.md#events))'
    },
    EVENT_WAIT_MAX_READERS: {
      type: 'integer',
      minimum: 0,
      maximum: 100_000,
      default: 1000,
      description: 'feed readers that may wait (`wait`) at once, per instance; one more gets 503 ' +
        'with `Retry-After`. One API key may hold a tenth of them (at least one); one more of its ' +
        'own gets 429'
    },

    EVENT_STREAM_URL: {
      type: 'string',
      pattern: '^((nats|tls)://.+|amqps?://.+)?$',
      default: '',
      'x-default': 'unset (off)',
      description: '`nats://HOST:4222` (NATS JetStream) or `amqp://USER:PASSWORD@HOST/VHOST` ' +
        '(RabbitMQ): publish every event there too, in feed order; a broker that is down never ' +
        'stops the start ([Event streams](event-streams.md))'
    },
    EVENT_STREAM_TOPIC: {
      type: 'string',
      pattern: '^[A-Za-z0-9_-]+(\\.[A-Za-z0-9_-]+)*$',
      maxLength: 200,
      default: 'petstore.events',
      description: 'NATS: the subject prefix (`petstore.events.pet.created`); RabbitMQ: the durable ' +
        'topic exchange, whose routing key is the event type. Made when missing'
    },
    EVENT_STREAM_NAME: {
      type: 'string',
      pattern: '^[A-Za-z0-9_-]+$',
      maxLength: 200,
      default: 'PETSTORE_EVENTS',
      description: 'NATS: the JetStream stream that takes `EVENT_STREAM_TOPIC.>`, made when missing'
    },
    EVENT_STREAM_SOURCE: {
      type: 'string',
      minLength: 1,
      maxLength: 1000,
      default: '/petstore',
      description: 'the CloudEvents `ce-source` of every message: a URI reference naming this ' +
        'service, the same on every instance'
    },

    WEBHOOK_ALLOWED_NETWORKS: {
      type: 'string',
      default: '',
      description: 'CIDR list webhook URLs may reach besides public addresses, plain `http` allowed ' +
        'there (`127.0.0.0/8` for a receiver on your machine)'
    },
    WEBHOOK_RETRY_DELAYS: {
      type: 'string',
      default: '5s,5m,30m,2h,5h,10h,14h,20h,24h',
      description: 'the waits before each retry of a failed delivery (`ms`, `s`, `m`, `h`, `d`), ' +
        'each up to 20% longer; N delays give N + 1 attempts'
    },
    // At most 30 s, so that a claim outlives its attempt and still passes to another
    // instance within a minute of a crash (src/features/webhooks/dispatcher.ts).
    WEBHOOK_TIMEOUT_MS: {
      type: 'integer',
      minimum: 100,
      maximum: 30_000,
      default: 15_000,
      description: 'how long a delivery waits for its answer (at most 30000)'
    },
    WEBHOOK_MAX_ENDPOINTS: {
      type: 'integer',
      minimum: 1,
      maximum: 10_000,
      default: 50,
      description: 'webhook endpoints there may be (enabled or not); one more is 409 `conflict` ' +
        'naming this setting'
    },
    WEBHOOK_CONCURRENCY: {
      type: 'integer',
      minimum: 1,
      maximum: 10_000,
      default: 64,
      description: 'delivery attempts under way at once, per instance, shared equally by the ' +
        'enabled endpoints (each has at least one)'
    },
    WEBHOOK_ENDPOINT_CONCURRENCY: {
      type: 'integer',
      minimum: 1,
      maximum: 1000,
      default: 16,
      description: 'delivery attempts under way at once to one endpoint at most, per instance, and ' +
        'the connections kept to it'
    },
    WEBHOOK_SECRETS_KEY: {
      type: 'string',
      default: '',
      description: 'the key that seals webhook secrets in the database: 32 random bytes in base64, ' +
        'the same on every instance; without it, a key file. A key the stored secrets were not ' +
        'sealed with stops the start ([Webhook deliveries](README.md#webhook-deliveries))'
    },
    WEBHOOK_SECRETS_KEY_FILE: {
      type: 'string',
      default: '',
      'x-default': 'beside the SQLite database; `./data/` for PostgreSQL',
      description: 'where the key file is, without `WEBHOOK_SECRETS_KEY`; made at the first secret, ' +
        'and only while the database holds no sealed secret: a missing file over sealed secrets ' +
        'stops the start'
    }
  }
} as const satisfies ExtendedJSONSchema<Annotations>

/**
 * The environment as validated: coerced to each variable's type, defaults filled in (a
 * variable with a default is always there), nothing else.
 */
export type Env = FromExtendedSchema<Annotations, typeof ENVIRONMENT>

/** The environment variables the service is configured by (tracing's OTEL_* besides). */
export const SETTINGS: readonly string[] = Object.keys(ENVIRONMENT.properties)

/**
 * The standard OpenTelemetry variables: read by ./tracing.ts, to know whether tracing is on
 * and what it traces, and by OpenTelemetry's SDK once it is. Not validated here (the SDK
 * has its own rules), but said in the table, after the others.
 */
export const TRACING_VARIABLES: ReadonlyArray<{ names: readonly string[], default: string, description: string }> = [
  {
    names: TRACE_DESTINATIONS,
    default: 'none: tracing off',
    description: 'where spans go; any of them turns tracing on ([Traces](observability.md#traces))'
  },
  {
    names: ['OTEL_SERVICE_NAME', 'OTEL_TRACES_SAMPLER', 'OTEL_EXPORTER_OTLP_PROTOCOL', '...'],
    default: "the SDK's (service name `petstore-service`)",
    description: 'the other standard OpenTelemetry variables, read by its SDK once tracing is on; ' +
      '`OTEL_SDK_DISABLED=true` turns tracing off'
  },
  {
    names: ['OTEL_NODE_DISABLED_INSTRUMENTATIONS', 'OTEL_NODE_ENABLED_INSTRUMENTATIONS'],
    default: 'every one on',
    description: `instrumentations off, or the only ones on, by name: ${INSTRUMENTATIONS.map((name) => `\`${name}\``).join(', ')}`
  }
]
