/**
 * SQLite statements as spans of the trace they run in, when tracing is on: no maintained
 * instrumentation covers better-sqlite3. A statement runs synchronously, so its span is
 * exactly its time on the thread. Made only for statements Kysely runs (every query of the
 * service), by wrapping each prepared statement once; with tracing off nothing is wrapped.
 * Only inside a trace, as pg's and ioredis's (`requireParentSpan`): a statement no request
 * caused (a poll, a probe, a migration) would be a trace of its own, every second.
 */
import { SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api'
import type { SqliteStatement } from 'kysely'

const tracer = trace.getTracer('petstore-service')

/** `select`, `insert`, `begin`...: the statement's first word, what the span is named by. */
function operationOf (sql: string): string {
  return /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase() ?? 'sql'
}

function inSpan<T> (name: string, sql: string, run: () => T): T {
  if (trace.getActiveSpan() === undefined) return run()
  const span: Span = tracer.startSpan(name, {
    kind: SpanKind.CLIENT,
    attributes: { 'db.system.name': 'sqlite', 'db.operation.name': name, 'db.query.text': sql }
  })
  try {
    return run()
  } catch (error) {
    span.recordException(error as Error)
    span.setStatus({ code: SpanStatusCode.ERROR, message: (error as Error).message })
    throw error
  } finally {
    span.end()
  }
}

export function tracedStatement (statement: SqliteStatement, sql: string): SqliteStatement {
  const name = operationOf(sql)
  return {
    reader: statement.reader,
    all: (parameters) => inSpan(name, sql, () => statement.all(parameters)),
    run: (parameters) => inSpan(name, sql, () => statement.run(parameters)),
    // A stream's rows are read after the call returns: the span covers the first step only.
    iterate: (parameters) => inSpan(name, sql, () => statement.iterate(parameters))
  }
}
