/**
 * Sends the spans still waiting in the SDK's batch, so that a stopping service's last
 * requests reach the tracing backend. Nothing to do with tracing off.
 *
 * For at most `withinMs`: a backend that does not answer (the exporter waits 10 s for one)
 * must not hold up the stop, nor make it overrun SHUTDOWN_GRACE_MS; those spans are lost.
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { trace } from '@opentelemetry/api'

interface Flushable { forceFlush?: () => Promise<void> }

export async function flushTraces (withinMs = 2000): Promise<void> {
  // The registered provider sits behind the API's proxy; the SDK's has forceFlush.
  const proxy = trace.getTracerProvider() as { getDelegate?: () => Flushable }
  const flushed = proxy.getDelegate?.().forceFlush?.()
  if (flushed === undefined) return
  const gaveUp = new AbortController()
  await Promise.race([flushed.finally(() => gaveUp.abort()), sleep(withinMs, undefined, { signal: gaveUp.signal, ref: false }).catch(() => {})])
}
