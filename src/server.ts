/**
 * The entry point: configuration, logger, listen, graceful shutdown. Nothing else.
 */
import { appOptions, buildApp } from './app.ts'
import { loadConfig, type Config } from './config/config.ts'
import { precompiled } from './contract/precompiled.ts'
import { announceFirstRunKey, ensureFirstRunKey } from './features/api-keys/first-run.ts'
import { loggerOptions } from './config/logger.ts'
import { TurnBatchedDestination } from './config/log-destination.ts'
import { startMetricsServer, type MetricsServer } from './features/metrics/server.ts'
import { closeGracefully } from './http/graceful-shutdown.ts'
import { startFailure } from './config/start-failure.ts'
import { flushTraces } from './tracing/flush.ts'
import { activeTraceFields } from './tracing/trace-context.ts'

let config: Config
try {
  config = loadConfig(process.env, precompiled)
} catch (error) {
  console.error(`Invalid configuration: ${(error as Error).message}`)
  process.exit(1)
}

/** A start that cannot go on: why, in one line, and exit 1 (the database closes with the process). */
function cannotStart (portSetting: string) {
  return (error: unknown): never => {
    console.error(`Cannot start: ${startFailure(error, portSetting)}`)
    process.exit(1)
  }
}

// JSON lines to standard output, a turn of the event loop's lines at a time; pino-pretty,
// for a person at a terminal, writes from a worker of its own.
const logOptions = loggerOptions(config.log, process.stdout.isTTY === true, config.tracing.enabled ? activeTraceFields : undefined)
const logger = 'transport' in logOptions ? logOptions : { ...logOptions, stream: new TurnBatchedDestination(1) }

/**
 * Builds the service and serves it. A function, not the module's top level: the build
 * bundles the service as a script compiled with V8's code cache (scripts/bundle.ts), and a
 * script has no top-level await.
 */
async function serve (): Promise<void> {
  const app = await buildApp({ ...appOptions(config), logger }).catch(cannotStart('PORT'))

  // SIGTERM or SIGINT: stop accepting connections, let in-flight requests finish (new ones
  // on open connections are served too, with Connection: close), close the database
  // cleanly, exit 0. Past the grace period the process exits 1 regardless. The same signal
  // again is ignored (npm start passes on the one the group got); another signal ends the
  // process at once with 1.
  let metricsServer: MetricsServer | undefined
  closeGracefully(config.timeouts.shutdownGraceMs, app.log, async () => {
    await Promise.all([metricsServer?.close(), app.close()])
    // Tracing's last spans (the requests just drained) before the process ends.
    await flushTraces().catch((error: unknown) => app.log.warn({ err: error }, 'could not send the last spans'))
  })

  const address = await app.listen({ port: config.port, host: config.host }).catch(cannotStart('PORT'))
  if (config.metricsPort !== undefined) {
    // On METRICS_HOST, not HOST: an API served on every interface keeps its metrics private.
    metricsServer = await startMetricsServer(app.prometheus!.registry, {
      port: config.metricsPort,
      host: config.metricsHost,
      timeouts: { headersMs: config.timeouts.headersMs, requestMs: config.timeouts.requestMs, keepAliveMs: config.metricsKeepAliveMs }
    }).catch(cannotStart('METRICS_PORT'))
    app.log.info({ metricsUrl: metricsServer.url }, `Prometheus metrics on ${metricsServer.url}`)
  }
  const base = address.replace('://0.0.0.0', '://127.0.0.1').replace('://[::]', '://127.0.0.1')
  const firstKey = await ensureFirstRunKey(app)
  if (firstKey !== undefined) {
    await announceFirstRunKey({
      key: firstKey, baseUrl: base, databaseUrl: config.database.url, isTerminal: process.stdout.isTTY === true, terminal: process.stdout, log: app.log
    })
  }
  process.stdout.write(`Petstore API on ${base}/v1, docs on ${base}/docs\n`)
}

// What the steps above do not catch themselves ends the start the same way.
serve().catch(cannotStart('PORT'))
