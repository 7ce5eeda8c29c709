/**
 * The last spans of a stopping service are sent before it exits, but a backend that does
 * not answer holds the stop up for at most the time given.
 */
import t from 'tap'
import { trace } from '@opentelemetry/api'
import { BatchSpanProcessor, InMemorySpanExporter, NodeTracerProvider, type ReadableSpan, type SpanExporter } from '@opentelemetry/sdk-trace-node'
import { flushTraces } from '../../src/tracing/flush.ts'

t.test('with tracing off, there is nothing to send', async (t) => {
  await flushTraces()
  t.pass('resolved')
})

t.test('the spans waiting in the batch are sent; a backend that never answers is given up on', async (t) => {
  const exporter = new InMemorySpanExporter()
  let answering = true
  let unanswered: (() => void) | undefined
  const hanging: SpanExporter = {
    export (spans: ReadableSpan[], done) {
      if (answering) exporter.export(spans, done)
      // While the backend hangs, no answer; the test's end gives one, so nothing is left waiting.
      else unanswered = () => done({ code: 1 })
    },
    shutdown: async () => {}
  }
  // A batch sent every hour, and an export waited for as long: only a flush sends it now,
  // and only the flush's own bound ends the wait for an answer that never comes.
  const provider = new NodeTracerProvider({ spanProcessors: [new BatchSpanProcessor(hanging, { scheduledDelayMillis: 3_600_000, exportTimeoutMillis: 3_600_000 })] })
  provider.register()
  t.teardown(() => {
    unanswered?.()
    trace.disable()
  })
  trace.getTracer('test').startSpan('last request').end()
  await flushTraces()
  t.same(exporter.getFinishedSpans().map((span) => span.name), ['last request'], 'sent on the flush')

  answering = false
  trace.getTracer('test').startSpan('unsent').end()
  await flushTraces(50)
  t.pass('the flush gave up rather than wait an hour on the backend')
  t.same(exporter.getFinishedSpans().map((span) => span.name), ['last request'], 'and nothing more was sent')
})
