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
 * - The scopes an operation's key needs come first in its description, each with the
 *   scopes that include it, and the bearer scheme lists every scope: Swagger UI shows scopes
 *   for OAuth only.
 * - The relative server says what it is in the servers list: "/v1" alone reads like a typo
 *   next to two full URLs.
 */
import type { ApiDocument, JsonObject } from '../../contract/document.ts'
import { STABILITY_PROMISES } from '../../contract/operation-hooks.ts'
import { declaredScopes, requiredScopes } from '../../contract/operation-security.ts'
import { scopesIncluding } from '../../contract/scope-inclusion.ts'

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

/** The line that says which scopes the operation's key needs; none when it needs none. */
function scopeLine (document: ApiDocument, operationId: string): string[] {
  const alternatives = requiredScopes(document, operationId)?.filter((scopes) => scopes.length > 0) ?? []
  if (alternatives.length === 0) return []
  const including = scopesIncluding([...declaredScopes(document).keys()])
  const named = (scope: string) => {
    const others = including.get(scope) ?? []
    return others.length === 0 ? `\`${scope}\`` : `\`${scope}\` (or ${others.map((other) => `\`${other}\``).join(' or ')}, which includes it)`
  }
  const needed = alternatives.map((scopes) => scopes.map(named).join(' and ')).join(', or ')
  return [`**Scope:** ${needed}. A key without it gets \`403 insufficient_scope\`.`]
}

/** The bearer scheme's description, followed by the scopes a key can hold. */
function schemeWithScopes (scheme: JsonObject, scopes: ReadonlyMap<string, string>): void {
  if (scopes.size === 0 || scheme['x-scopes'] === undefined) return
  const list = [...scopes].map(([scope, allows]) => `- \`${scope}\`: ${allows}`).join('\n')
  scheme.description = `${String(scheme.description ?? '')}\n\nA key holds one or more scopes, and each operation needs one:\n\n${list}`.trim()
}

export function docsPageDocument (document: ApiDocument): JsonObject {
  const copy = JSON.parse(document.json) as JsonObject
  for (const item of Object.values(copy.paths as JsonObject)) {
    for (const operation of Object.values(item as JsonObject) as JsonObject[]) {
      if (typeof operation.operationId !== 'string') continue
      const { tags, lines } = markings(operation, document.prefix)
      lines.push(...scopeLine(document, operation.operationId))
      if (lines.length === 0) continue
      operation.description = `${lines.join('\n\n')}\n\n${String(operation.description ?? '')}`
      if (tags.length === 0) continue
      // The written summary may say "(deprecated)" for readers of the bare document; the
      // page's marking says it already.
      const summary = String(operation.summary ?? '').replace(/\s*\(deprecated\)$/i, '')
      operation.summary = `${tags.map((tag) => `[${tag}]`).join(' ')} ${summary}`.trim()
    }
  }
  const scopes = declaredScopes(document)
  for (const scheme of Object.values(((copy.components as JsonObject | undefined)?.securitySchemes ?? {}) as JsonObject)) {
    schemeWithScopes(scheme as JsonObject, scopes)
  }
  for (const server of (copy.servers ?? []) as JsonObject[]) {
    if (!URL.canParse(String(server.url))) server.description = RELATIVE_SERVER_LABEL
  }
  return copy
}
