/**
 * A webhook attempt as a span: a client span in the trace of the change that caused it (its
 * event keeps that trace, src/tracing/trace-context.ts), linked to the change's span, whose
 * own `traceparent` goes to the receiver with the delivery. A receiver that traces sees its
 * work as part of the change's trace.
 *
 * With tracing off the span records nothing and no header is added, at the cost of a few
 * calls per attempt, next to a request over the network.
 */
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { contextOf } from '../../tracing/trace-context.ts'
import type { AttemptResult } from './attempt.ts'
import type { Claimed } from './claims.ts'

const tracer = trace.getTracer('petstore-service')

export async function tracedAttempt (
  delivery: Claimed,
  url: URL,
  headers: Record<string, string>,
  attempt: (headers: Record<string, string>) => Promise<AttemptResult>
): Promise<AttemptResult> {
  const change = contextOf(delivery.event.trace_context)
  const changeSpan = trace.getSpanContext(change)
  const span = tracer.startSpan('webhook delivery', {
    kind: SpanKind.CLIENT,
    links: changeSpan === undefined ? [] : [{ context: changeSpan }],
    attributes: {
      'http.request.method': 'POST',
      'url.full': `${url.origin}${url.pathname}`,
      'server.address': url.hostname,
      'webhook.endpoint.id': String(delivery.endpointId),
      'webhook.delivery.id': String(delivery.id),
      'webhook.attempt': delivery.attempt,
      'webhook.event.id': delivery.event.id,
      'webhook.event.type': delivery.event.type
    }
  }, change)
  const active = trace.setSpan(change, span)
  const sent = { ...headers }
  propagation.inject(active, sent)
  try {
    const result = await context.with(active, () => attempt(sent))
    if (result.status !== undefined) span.setAttribute('http.response.status_code', result.status)
    if (!result.succeeded) {
      span.setAttribute('error.type', result.error ?? 'failed')
      span.setStatus({ code: SpanStatusCode.ERROR, message: result.error })
    }
    return result
  } finally {
    span.end()
  }
}
