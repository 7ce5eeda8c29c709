/**
 * The trace of a change, kept with its events so that the webhook deliveries it causes,
 * made later and by any instance, are spans of the same trace. Kept as a W3C `traceparent`
 * (`00-<trace id>-<span id>-<flags>`) whatever propagators are configured: it is our own
 * column, read back only here.
 *
 * With tracing off no span is ever active, so nothing is kept and these cost a lookup.
 */
import { context, ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api'

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/

/** The flags as W3C Trace Context writes them: two hex digits (`01`: sampled). */
const hexFlags = (flags: number) => flags.toString(16).padStart(2, '0')

/** The active span's `traceparent`, or null when no span is active. */
export function activeTraceparent (): string | null {
  const span = trace.getSpan(context.active())
  if (span === undefined) return null
  const spanContext = span.spanContext()
  if (!trace.isSpanContextValid(spanContext)) return null
  return `00-${spanContext.traceId}-${spanContext.spanId}-${hexFlags(spanContext.traceFlags)}`
}

/** A context whose parent is the span `traceparent` names; the root context without one. */
export function contextOf (traceparent: string | null): Context {
  const parts = traceparent === null ? null : TRACEPARENT.exec(traceparent)
  if (parts === null) return ROOT_CONTEXT
  return trace.setSpanContext(ROOT_CONTEXT, { traceId: parts[1]!, spanId: parts[2]!, traceFlags: parseInt(parts[3]!, 16), isRemote: true })
}

/** Log fields naming the active span, as the OpenTelemetry log conventions spell them. */
export function activeTraceFields (): Record<string, string> {
  const span = trace.getSpan(context.active())
  if (span === undefined) return {}
  const { traceId, spanId, traceFlags } = span.spanContext()
  return { trace_id: traceId, span_id: spanId, trace_flags: hexFlags(traceFlags) }
}

/**
 * `work` run outside any trace: background work a request only wakes (the dispatcher's
 * claims, the numbering pass) is no part of what that request caused, and, with no span
 * active, its statements make no spans at all.
 */
export function inRootContext<T> (work: () => T): T {
  return context.with(ROOT_CONTEXT, work)
}

/** `work`, run in the context active now: a group commit runs each write in its caller's trace. */
export function inCallersContext<F extends (...args: never[]) => unknown> (work: F): F {
  return context.bind(context.active(), work)
}
