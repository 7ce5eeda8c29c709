/**
 * Run before the service is imported (scripts/start.js, `npm run dev`): starts tracing when
 * the environment asks for it (../config/tracing.ts). Otherwise it loads nothing more.
 */
import { tracingRequested } from '../config/tracing.ts'

if (tracingRequested(process.env)) {
  const { startTracing } = await import('./sdk.ts')
  startTracing()
}
