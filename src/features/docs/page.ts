/**
 * The document as the docs page (/docs) shows it. Only the page sees these decorations:
 * /openapi.json and /openapi.yaml serve the document as written.
 *
 * - Integers are plain (rounded) numbers, since Swagger UI uses JSON.parse anyway.
 * - A stability marking (`x-stability`) is put in front of the operation's summary and
 *   description, where a reader cannot miss it.
 * - A deprecated operation's summary starts with its sunset date, and its description with
 *   the dates and its successor: Swagger UI only greys the operation out and strikes its
 *   path through, which says neither when it goes nor what replaces it.
 * - The relative server says what it is in the servers list: "/v1" alone reads like a typo
 *   next to two full URLs.
 */
import type { ApiDocument, JsonObject } from '../../contract/document.ts'
import { STABILITY_PROMISES } from '../../contract/operation-hooks.ts'

type Level = keyof typeof STABILITY_PROMISES

const RELATIVE_SERVER_LABEL = 'This server: the host serving this page (local in development)'

function capitalised (text: string): string {
  return `${text[0]!.toUpperCase()}${text.slice(1)}`
}

/** What the page puts in front of an operation's summary and description. */
function markings (operation: JsonObject, prefix: string): { tags: string[], lines: string[] } {
  const tags: string[] = []
  const lines: string[] = []
  if (operation.deprecated === true) {
    // The same fields the deprecation headers are made of (../../contract/operation-hooks.ts), which
    // checks them at start.
    const since = String(operation['x-deprecated-since'])
    const sunset = String(operation['x-deprecated-sunset'])
    tags.push(`deprecated, sunset ${sunset}`)
    lines.push(`**Deprecated** since ${since}; **sunset ${sunset}**, from when it answers \`410 gone\`. ` +
      `Successor: \`GET ${prefix}${String(operation['x-successor'])}\`.`)
  }
  const level = operation['x-stability'] as Level | undefined
  if (level !== undefined) {
    tags.push(level)
    lines.push(`**${capitalised(level)}**: ${STABILITY_PROMISES[level]}`)
  }
  return { tags, lines }
}

export function docsPageDocument (document: ApiDocument): JsonObject {
  const copy = JSON.parse(document.json) as JsonObject
  for (const item of Object.values(copy.paths as JsonObject)) {
    for (const operation of Object.values(item as JsonObject) as JsonObject[]) {
      const { tags, lines } = markings(operation, document.prefix)
      if (tags.length === 0) continue
      // The written summary may say "(deprecated)" for readers of the bare document; the
      // page's marking says it already.
      const summary = String(operation.summary ?? '').replace(/\s*\(deprecated\)$/i, '')
      operation.summary = `${tags.map((tag) => `[${tag}]`).join(' ')} ${summary}`.trim()
      operation.description = `${lines.join('\n\n')}\n\n${String(operation.description ?? '')}`
    }
  }
  for (const server of (copy.servers ?? []) as JsonObject[]) {
    if (!URL.canParse(String(server.url))) server.description = RELATIVE_SERVER_LABEL
  }
  return copy
}
