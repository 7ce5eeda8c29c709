/**
 * Whether the environment asks for traces. The standard OpenTelemetry variables configure
 * them; tracing is on once one of them names where spans go, so a deployment that sets
 * none loads none of it and pays nothing (docs/performance.md).
 *
 * Plain TypeScript with no imports: the start script reads it before anything else loads.
 */

/** The variables that name a destination for spans. */
export const TRACE_DESTINATIONS = ['OTEL_EXPORTER_OTLP_ENDPOINT', 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT', 'OTEL_TRACES_EXPORTER'] as const

export function tracingRequested (env: NodeJS.ProcessEnv): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '')
  // `none` alone turns traces off, as the SDK reads it.
  if (exporters.length > 0 && exporters.every((name) => name === 'none')) return false
  return TRACE_DESTINATIONS.some((name) => (env[name] ?? '').trim() !== '')
}
