/**
 * Sends the spans still waiting in the SDK's batch, so that a stopping service's last
 * requests reach the tracing backend. Nothing to do with tracing off.
 */
import { trace } from '@opentelemetry/api'

interface Flushable { forceFlush?: () => Promise<void> }

export async function flushTraces (): Promise<void> {
  // The registered provider sits behind the API's proxy; the SDK's has forceFlush.
  const proxy = trace.getTracerProvider() as { getDelegate?: () => Flushable }
  await proxy.getDelegate?.().forceFlush?.()
}
