/**
 * Whether the environment asks for traces. The standard OpenTelemetry variables configure
 * them; tracing is on once one of them names where spans go, so a deployment that sets
 * none loads none of it and pays nothing (docs/performance.md#tracing).
 *
 * In config/ with the other settings, which read it too (./config.ts). No imports:
 * ../tracing/preload.ts reads it before anything else of the service loads.
 */

/** The variables that name a destination for spans. */
export const TRACE_DESTINATIONS = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_TRACES_EXPORTER'] as const

/** What the service can trace, by the names OpenTelemetry's Node instrumentations go by. */
export const INSTRUMENTATIONS = ['http', 'fastify', 'pg', 'ioredis', 'better-sqlite3'] as const
export type Instrumentation = typeof INSTRUMENTATIONS[number]

const listed = (value: string | undefined) => new Set((value ?? '').split(',').map((name) => name.trim()).filter((name) => name !== ''))

/**
 * Whether `name` is on, as OTEL_NODE_ENABLED_INSTRUMENTATIONS and
 * OTEL_NODE_DISABLED_INSTRUMENTATIONS say (the variables OpenTelemetry's Node
 * auto-instrumentation reads): every one unless the first lists others, none the second
 * lists. Names of instrumentations the service does not have are for other programs
 * sharing the environment, and change nothing here.
 */
export function instrumentationEnabled (env: NodeJS.ProcessEnv, name: Instrumentation): boolean {
  const enabled = listed(env.OTEL_NODE_ENABLED_INSTRUMENTATIONS)
  return (enabled.size === 0 || enabled.has(name)) && !listed(env.OTEL_NODE_DISABLED_INSTRUMENTATIONS).has(name)
}

export function tracingRequested (env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false
  const exporters = listed(env.OTEL_TRACES_EXPORTER)
  // `none` alone turns traces off, as the SDK reads it.
  if (exporters.size > 0 && [...exporters].every((name) => name === 'none')) return false
  return TRACE_DESTINATIONS.some((name) => (env[name] ?? '').trim() !== '')
}
