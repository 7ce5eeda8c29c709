/**
 * What the document declares and the service could not honour, found before anything is
 * served: the start stops (and `npm run codegen` refuses the document) with every problem,
 * each naming its place, rather than serving routes that quietly do less than the
 * document says. The operations without a handler are checked where handlers are paired
 * with operations (./wiring.ts).
 */
import type { ApiDocument, Json, JsonObject } from './document.ts'
import { BODY_MEDIA_TYPES } from '../http/media-type.ts'
import { securityProblems } from './operation-security.ts'
import { eventProblems, type EmittedEvents } from './webhooks.ts'
import { eventStreamProblems } from './event-stream.ts'

/** Where each location's parameters are read from, and the one style the service reads there. */
const PARAMETER_STYLES: Readonly<Record<string, { style: string, explode: boolean }>> = {
  query: { style: 'form', explode: true },
  path: { style: 'simple', explode: false },
  header: { style: 'simple', explode: false }
}

/** The schema types a parameter may have: one value read from text, never a list or an object. */
const SCALAR_TYPES = new Set(['string', 'integer', 'number', 'boolean'])

/**
 * Every `$ref` that names nothing, by the JSON pointer of the place that holds it. The
 * pointer is written only for a problem: the walk covers the whole document at each start.
 */
function unresolvedRefs (document: ApiDocument, root: Json): string[] {
  const problems: string[] = []
  const path: string[] = []
  const walk = (node: Json): void => {
    if (node === null || typeof node !== 'object') return
    if (!Array.isArray(node) && typeof node.$ref === 'string' && !resolves(document, node.$ref)) {
      const at = path.map((key) => `/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('')
      problems.push(`#${at}: $ref ${node.$ref} does not resolve (only #/... references inside the document are read)`)
    }
    for (const key of Object.keys(node)) {
      path.push(key)
      walk((node as JsonObject)[key]!)
      path.pop()
    }
  }
  walk(root)
  return problems
}

function resolves (document: ApiDocument, ref: string): boolean {
  try {
    document.resolve(ref)
    return true
  } catch {
    return false
  }
}

function parameterProblems (operationId: string, path: string, parameters: JsonObject[]): string[] {
  const problems: string[] = []
  const seen = new Set<string>()
  for (const parameter of parameters) {
    const where = `${operationId}: ${String(parameter.in)} parameter ${String(parameter.name)}`
    const readable = PARAMETER_STYLES[String(parameter.in)]
    const key = `${String(parameter.in)} ${String(parameter.name).toLowerCase()}`
    if (seen.has(key)) problems.push(`${where} is declared twice`)
    seen.add(key)
    if (readable === undefined) {
      problems.push(`${where}: the service reads parameters in the query, the path and headers only`)
      continue
    }
    const schema = parameter.schema as JsonObject | undefined
    if (schema === undefined) problems.push(`${where} has no schema (\`content\` is not read for parameters)`)
    else if (!SCALAR_TYPES.has(String(schema.type))) problems.push(`${where}: type ${String(schema.type)} cannot be read; a parameter is a string, integer, number or boolean`)
    if ((parameter.style ?? readable.style) !== readable.style || (parameter.explode ?? readable.explode) !== readable.explode) {
      problems.push(`${where}: style ${String(parameter.style)}, explode ${String(parameter.explode)} cannot be read; only the default (${readable.style}) is`)
    }
    if (parameter.allowEmptyValue === true) problems.push(`${where}: allowEmptyValue is not honoured; an empty value is judged by the schema`)
    if (parameter.in === 'path' && parameter.required !== true) problems.push(`${where} must be required: true, as every path parameter is`)
    if (parameter.in === 'path' && !path.includes(`{${String(parameter.name)}}`)) problems.push(`${where} is not in the path ${path}`)
  }
  for (const [, name] of path.matchAll(/\{([^}]+)\}/g)) {
    if (!parameters.some((parameter) => parameter.in === 'path' && parameter.name === name)) problems.push(`${operationId}: the path ${path} names {${name}}, which no path parameter declares`)
  }
  return problems
}

function bodyProblems (operationId: string, body: JsonObject | null): string[] {
  if (body === null) return []
  const problems = Object.keys((body.content ?? {}) as JsonObject)
    .filter((mediaType) => !BODY_MEDIA_TYPES.includes(mediaType))
    .map((mediaType) => `${operationId}: request body media type ${mediaType} is not one the service reads (${BODY_MEDIA_TYPES.join(', ')})`)
  if (Object.keys((body.content ?? {}) as JsonObject).length === 0) problems.push(`${operationId}: the request body declares no media type`)
  if (body.required !== true) problems.push(`${operationId}: the request body must be required: true; the service takes no optional bodies`)
  return problems
}

function responseProblems (operationId: string, responses: JsonObject): string[] {
  return Object.entries(responses).flatMap(([status, response]) =>
    Object.keys(((response as JsonObject).content ?? {}) as JsonObject)
      .filter((mediaType) => mediaType !== 'application/json')
      .map((mediaType) => `${operationId}: response ${status} media type ${mediaType} is not one the service answers (application/json)`))
}

/**
 * Every problem of the document, in document order; none for a document the service can
 * serve with handlers that emit `emitted` events (none: a document declaring webhooks is
 * refused).
 */
export function documentProblems (document: ApiDocument, emitted: EmittedEvents = {}): string[] {
  const refs = unresolvedRefs(document, document.document)
  // The rest reads through $refs, so it waits until they all resolve.
  if (refs.length > 0) return refs
  const problems: string[] = []
  problems.push(...eventProblems(document, emitted))
  problems.push(...eventStreamProblems(document))
  problems.push(...securityProblems(document))
  for (const op of document.operations.values()) {
    const { operation } = op
    problems.push(...parameterProblems(op.operationId, op.path, document.parameters(op.operationId)))
    problems.push(...bodyProblems(op.operationId, document.dereference(operation.requestBody ?? null) as JsonObject | null))
    problems.push(...responseProblems(op.operationId, document.dereference(operation.responses ?? {}) as JsonObject))
    if (operation.callbacks !== undefined) problems.push(`${op.operationId}: callbacks are not made by the service`)
    if (operation.servers !== undefined) problems.push(`${op.operationId}: servers of its own are not honoured; every operation is served under the first server of the document`)
  }
  return problems
}

/** Throws with every problem, one per line, when the document declares what the service cannot honour. */
export function checkDocument (document: ApiDocument, emitted: EmittedEvents = {}): void {
  const problems = documentProblems(document, emitted)
  if (problems.length > 0) {
    throw new Error(`${document.source} declares what the service cannot honour:\n  - ${problems.join('\n  - ')}`)
  }
}
