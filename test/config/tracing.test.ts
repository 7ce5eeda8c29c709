/**
 * When tracing is on: once a standard variable names where spans go, and not when the
 * SDK is disabled or its traces exporter is `none`. The configuration says the same.
 */
import t from 'tap'
import { INSTRUMENTATIONS, instrumentationEnabled, tracingRequested } from '../../src/config/tracing.ts'
import { loadConfig } from '../../src/config/config.ts'

t.test('tracing is on when a variable names where spans go', async (t) => {
  const cases: Array<[NodeJS.ProcessEnv, boolean, string]> = [
    [{}, false, 'nothing set: off'],
    [{ OTEL_SERVICE_NAME: 'petstore' }, false, 'a name alone sends nothing'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true, 'an OTLP endpoint'],
    [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces' }, true, 'a traces endpoint'],
    [{ OTEL_TRACES_EXPORTER: 'console' }, true, 'an exporter by name'],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' }, false, 'an empty endpoint'],
    [{ OTEL_TRACES_EXPORTER: 'none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false, 'the exporter `none`'],
    [{ OTEL_TRACES_EXPORTER: 'otlp,none', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, true, '`none` beside another exporter: the SDK uses the other'],
    [{ OTEL_SDK_DISABLED: 'TRUE', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318' }, false, 'the SDK disabled']
  ]
  for (const [env, on, why] of cases) {
    t.equal(tracingRequested(env), on, why)
    t.equal(loadConfig(env).tracing.enabled, on, `the configuration agrees: ${why}`)
  }
})

t.test('the instrumentations are chosen as OpenTelemetry\'s Node auto-instrumentation reads it', async (t) => {
  const on = (env: NodeJS.ProcessEnv) => INSTRUMENTATIONS.filter((name) => instrumentationEnabled(env, name))
  t.same(on({}), ['http', 'fastify', 'pg', 'ioredis', 'better-sqlite3'], 'every one by default')
  t.same(on({ OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'better-sqlite3, fs' }), ['http', 'fastify', 'pg', 'ioredis'], 'all but those disabled; other programs\' names change nothing')
  t.same(on({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'fastify,pg' }), ['fastify', 'pg'], 'only those enabled')
  t.same(on({ OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'fastify,pg', OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'pg' }), ['fastify'], 'disabled wins')
  t.equal(loadConfig({ OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'better-sqlite3' }).tracing.sqliteStatements, false, 'the configuration says whether SQLite\'s statements are spans')
})
