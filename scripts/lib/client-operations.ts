/**
 * The client's table of operations, client/src/generated/operations.ts, written by
 * `npm run codegen` from the document: for each operation, what petstore-client's one generic
 * method needs to call it and to type it (client/src/operation.ts says what each field means).
 * So a new operation is a new method of the client, with no hand edit.
 *
 * An operation that method could not call as the document declares it (a header it would not
 * send, a POST it would retry without an Idempotency-Key, a list whose pages it could not
 * follow) fails codegen, each problem named, rather than becoming a method that does less.
 */
import type { ApiDocument, JsonObject } from '../../src/contract/document.ts'

export const CLIENT_OPERATIONS = 'client/src/generated/operations.ts'

const METHODS = ['GET', 'PUT', 'POST', 'PATCH', 'DELETE']
/** Request body media types, in the order the client prefers them: a merge patch as what it is. */
const BODY_TYPES = ['application/merge-patch+json', 'application/json']
/**
 * Header parameters the client handles itself: it sends the first always, the second when
 * the call's options give one, and never the third (it keeps no cache).
 */
const IDEMPOTENCY_KEY = 'idempotency-key'
const IF_MATCH = 'if-match'
const UNSENT_HEADERS = ['if-none-match']
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/
const STABILITY = ['experimental', 'alpha', 'beta']

interface Entry {
  method: string
  path: string
  pathParameters: string[]
  body: string | null
  defaulted: string[]
  query: 'none' | 'optional' | 'required'
  idempotencyKey: boolean
  ifMatch: boolean
  paged: boolean
  answer: 'json' | 'none'
}

interface Described { id: string, entry: Entry, doc: string[], pageDoc: string[] }

/** The text of client/src/generated/operations.ts; throws naming every operation it cannot make a method of. */
export function clientOperations (document: ApiDocument): string {
  const problems: string[] = []
  const described: Described[] = []
  for (const { operationId } of document.operations.values()) {
    const found = describe(document, operationId)
    if (Array.isArray(found)) problems.push(...found)
    else described.push(found)
  }
  const ids = new Set(document.operations.keys())
  for (const { id, entry } of described) {
    if (entry.paged && ids.has(`${id}Page`)) problems.push(`${id}: its one-page method would be ${id}Page, which is another operation's name`)
  }
  if (problems.length > 0) {
    throw new Error(`${document.source} has operations the client cannot make a method of:\n  - ${problems.join('\n  - ')}`)
  }
  return render(described)
}

function describe (document: ApiDocument, id: string): Described | string[] {
  const { method, path, operation } = document.operation(id)
  const problems: string[] = []
  if (!IDENTIFIER.test(id) || id === 'then') problems.push(`${id}: an operationId names a method, so it must be a JavaScript identifier (and not "then")`)
  if (!METHODS.includes(method)) problems.push(`${id}: the client has methods for ${METHODS.join(', ')} only, not ${method}`)

  const parameters = document.parameters(id)
  const named = (location: string) => parameters.filter((parameter) => parameter.in === location)
  const pathParameters = [...path.matchAll(/\{([^}]+)\}/g)].map(([, name]) => name!)
  const queries = named('query')
  const headers = parameters.filter((parameter) => parameter.in !== 'path' && parameter.in !== 'query')
  for (const header of headers) {
    const name = String(header.name).toLowerCase()
    if (header.in === 'header' && name === IDEMPOTENCY_KEY) continue
    if (header.in === 'header' && name === IF_MATCH && header.required !== true) continue
    if (header.in === 'header' && UNSENT_HEADERS.includes(name) && header.required !== true) continue
    problems.push(`${id}: ${String(header.in)} parameter ${String(header.name)}: the client's methods take path and query parameters and a body, and send no other ${String(header.in)}`)
  }
  const idempotencyKey = headers.some((header) => header.in === 'header' && String(header.name).toLowerCase() === IDEMPOTENCY_KEY)
  const ifMatch = headers.some((header) => header.in === 'header' && String(header.name).toLowerCase() === IF_MATCH)
  if (method === 'POST' && !idempotencyKey) problems.push(`${id}: a POST must declare the Idempotency-Key header, since the client retries every request it sends`)

  const requestBody = document.dereference(operation.requestBody ?? null) as JsonObject | null
  const content = (requestBody?.content ?? {}) as JsonObject
  const body = requestBody === null ? null : BODY_TYPES.find((type) => type in content) ?? null
  if (requestBody !== null && body === null) problems.push(`${id}: the client sends a body as ${BODY_TYPES.join(' or ')}, which the request body does not declare`)
  if (requestBody !== null && requestBody.required !== true) problems.push(`${id}: an optional request body cannot be told from a missing argument; declare it required: true`)
  const defaulted = body === null ? [] : defaultedProperties(content[body] as JsonObject, document, id, problems)

  const answers = successes(document, id, operation, problems)
  const answer = answers.some((schema) => schema !== null) ? 'json' : 'none'
  if (method === 'DELETE' && answer === 'json') {
    problems.push(`${id}: a DELETE whose answer was lost counts as done when its retry is 404, so it can answer no body`)
  }
  const paged = queries.some((parameter) => parameter.name === 'cursor')
  if (paged) {
    if (method !== 'GET' || body !== null) problems.push(`${id}: a list paged by cursor is a GET without a body`)
    if (!answers.every((schema) => schema?.type === 'array')) problems.push(`${id}: a list paged by cursor answers a JSON array in every success`)
  }
  if (problems.length > 0) return problems

  const query = queries.length === 0 ? 'none' : queries.some((parameter) => parameter.required === true) ? 'required' : 'optional'
  const entry: Entry = { method, path, pathParameters, body, defaulted, query, idempotencyKey, ifMatch, paged, answer }
  return { id, entry, ...docs(document, id, entry, queries) }
}

/** The schema of every 2xx answer (null for one without a body); a problem when there is none. */
function successes (document: ApiDocument, id: string, operation: JsonObject, problems: string[]): Array<JsonObject | null> {
  const responses = document.dereference(operation.responses ?? {}) as JsonObject
  const answers = Object.entries(responses).filter(([status]) => /^2(\d\d|XX)$/.test(status)).map(([status, response]) => {
    const content = ((response as JsonObject).content ?? {}) as JsonObject
    if (Object.keys(content).length > 0 && !('application/json' in content)) problems.push(`${id}: response ${status} is not JSON`)
    return ((content['application/json'] as JsonObject | undefined)?.schema ?? null) as JsonObject | null
  })
  if (answers.length === 0) problems.push(`${id}: it declares no success (2xx) answer`)
  if (answers.some((schema) => schema === null) && answers.some((schema) => schema !== null)) {
    problems.push(`${id}: some of its successes have a body and some have none; a method answers one or the other`)
  }
  return answers
}

/**
 * The properties of a body that have a `default` (the generated type marks them required,
 * as it is written for answers): its own and those of its `allOf` parts.
 */
function defaultedProperties (media: JsonObject, document: ApiDocument, id: string, problems: string[]): string[] {
  const schema = document.dereference(media.schema ?? {}) as JsonObject
  const found: string[] = []
  const visit = (node: JsonObject) => {
    if (node.anyOf !== undefined || node.oneOf !== undefined) {
      problems.push(`${id}: the client cannot tell which fields of a request body with anyOf or oneOf have defaults`)
    }
    for (const [name, property] of Object.entries((node.properties ?? {}) as JsonObject)) {
      if ((property as JsonObject).default !== undefined && !found.includes(name)) found.push(name)
    }
    for (const part of (node.allOf ?? []) as JsonObject[]) visit(part)
  }
  visit(schema)
  return found
}

/** The JSDoc of the method (and of the one-page method of a list), from the document. */
function docs (document: ApiDocument, id: string, entry: Entry, queries: JsonObject[]) {
  const { operation } = document.operation(id)
  const summary = typeof operation.summary === 'string' ? operation.summary : id
  const stability = STABILITY.includes(String(operation['x-stability'])) ? ` (${String(operation['x-stability'])} in the service)` : ''
  const doc = [`${summary}${stability}.`]
  const pageDoc = [`${summary}${stability}: one page; pass its \`nextCursor\` back as \`cursor\` for the next.`]
  if (entry.paged) {
    const limit = queries.some((parameter) => parameter.name === 'limit') ? '; `limit` is the page size' : ''
    doc.push(`Every item, page after page, as the loop asks for them${limit}.`)
  }
  if (entry.idempotencyKey) doc.push('Sends an `Idempotency-Key` (yours, or a new UUID): a retry never does it twice.')
  if (entry.ifMatch) doc.push('Sends `If-Match` when the options give one (`ifMatch`, an `ETag`): the service then acts only if it still matches.')
  if (entry.method === 'DELETE') doc.push('Resolves once it is done, including when an attempt\'s answer was lost and the retry finds it already gone.')
  if (operation.deprecated === true) {
    const deprecation = `@deprecated ${deprecated(document, id, operation)}`
    doc.push(deprecation)
    pageDoc.push(deprecation)
  }
  return { doc, pageDoc }
}

/** The removal date (`x-deprecated-sunset`) and the successor (`x-successor`, a path) of a deprecated operation. */
function deprecated (document: ApiDocument, id: string, operation: JsonObject): string {
  const sunset = operation['x-deprecated-sunset']
  const removed = typeof sunset === 'string' ? `The service removes ${id} on ${sunset} (then 410 \`gone\`)` : `The service may remove ${id}`
  const path = operation['x-successor']
  if (typeof path !== 'string') return `${removed}.`
  const { method } = document.operation(id)
  const successor = [...document.operations.values()].find((op) => op.path === path && op.method === method)
  return `${removed}: use ${successor?.operationId ?? `${method} ${path}`}.`
}

function comment (lines: string[], indent: string): string {
  const safe = lines.map((line) => line.replaceAll('*/', '*\\/'))
  if (safe.length === 1) return `${indent}/** ${safe[0]} */\n`
  return `${indent}/**\n${safe.map((line) => `${indent} * ${line}`).join('\n')}\n${indent} */\n`
}

/** A path parameter's name as a tuple label, which names the method's argument in editors. */
function label (name: string): string {
  const camel = name.replace(/[^\w$]+(.)?/g, (_, next: string | undefined) => next?.toUpperCase() ?? '')
  return /^\d/.test(camel) || camel === '' ? `_${camel}` : camel
}

function render (described: Described[]): string {
  const text = JSON.stringify
  const list = (items: string[]) => `[${items.map((item) => text(item)).join(', ')}]`
  const entries = described.map(({ id, entry, doc }) => {
    const { method, path, pathParameters, body, defaulted, query, idempotencyKey, ifMatch, paged, answer } = entry
    const tuple = `[${pathParameters.map((name) => `${label(name)}: ${text(name)}`).join(', ')}]`
    const fields = [
      `method: ${text(method)}`, `path: ${text(path)}`, `pathParameters: ${list(pathParameters)} as ${tuple}`,
      `body: ${text(body)}`, `defaulted: ${list(defaulted)}`, `query: ${text(query)}`,
      `idempotencyKey: ${idempotencyKey}`, `ifMatch: ${ifMatch}`, `paged: ${paged}`, `answer: ${text(answer)}`
    ]
    return `${comment(doc, '    ')}    ${id}: { ${fields.join(', ')} }`
  })
  const pages = described.filter(({ entry }) => entry.paged).map(({ id, pageDoc }) => `${comment(pageDoc, '    ')}    ${id}Page: ${text(id)};\n`)
  return [
    '// Generated from spec/openapi.yaml by `npm run codegen` (scripts/lib/client-operations.ts). Do not edit.\n',
    'import type { Operation } from "../operation.ts";',
    'import type { PathOperationId } from "./openapi.ts";\n',
    '/** Every operation of the document, by operationId, as the client calls it: one method each (../client.ts, ../types.ts). */',
    `export const OPERATIONS = {\n${entries.join(',\n')}\n} as const satisfies Record<PathOperationId, Operation>;\n`,
    '/** The one-page method of each list operation, and the operation it calls. */',
    `export interface PageMethods {\n${pages.join('')}}\n`
  ].join('\n')
}
