/**
 * The events of the document: its `webhooks` map (OpenAPI 3.1), one event type each, whose
 * request body is that type's envelope. What it must say for the events the service emits
 * (../features/events/types.ts) is checked at start, and by `npm run codegen`, with the rest
 * of the document (./start-checks.ts):
 * - every emitted type is declared, and every declared type is emitted;
 * - each is a `post` whose required `application/json` body is an object of exactly the
 *   envelope's fields (`previous` only for the types that carry it), `type` holding the
 *   type's own name: that schema is what every event of the type is serialized with
 *   (`envelopeSerializers`), so a field it lacked would be dropped and one the service never sends
 *   would be promised;
 * - each names the scope a key needs to read its events (`x-read-scope`, its resource's read
 *   scope, such as `pets:read`), one the bearer scheme lists: an event carries its
 *   resource's data, so the feed and webhook endpoints show it only to a key that may read
 *   that resource (`eventReadScopes`);
 * - `EventType`, the schema of the feed's `type` filter, lists exactly the declared types;
 *   `WebhookEventSelection`, what a webhook endpoint subscribes to, lists them too, with
 *   `<resource>.*` for each resource among them and `*`.
 */
import type { ApiDocument, JsonObject } from './document.ts'
import { serializerOf, serializerSchema } from './route-schema.ts'

/** The fields of every envelope; `previous` besides for the types that carry it. */
export const ENVELOPE_FIELDS = ['id', 'type', 'timestamp', 'sequence', 'data'] as const

/** Whether each emitted type's envelope carries `previous`, by type. */
export type EmittedEvents = Readonly<Record<string, { previous: boolean }>>

/** The webhook (a `post` operation) that declares `type`, `$ref`s resolved. */
export function webhookOf (document: ApiDocument, type: string): JsonObject | null {
  const item = ((document.document.webhooks ?? {}) as JsonObject)[type] as JsonObject | undefined
  return document.dereference(item?.post ?? null) as JsonObject | null
}

/** The envelope schema a webhook declares (`$ref`s resolved), or why there is none. */
export function envelopeSchema (document: ApiDocument, type: string): JsonObject | string {
  const post = webhookOf(document, type)
  if (post === null) return 'declares no post operation'
  const body = document.dereference(post.requestBody ?? null) as JsonObject | null
  const schema = ((body?.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined)?.schema
  if (body?.required !== true || schema === undefined) return 'declares no required application/json request body'
  return document.dereference(schema) as JsonObject
}

/** The scope a key needs to read each declared event type (its webhook's `x-read-scope`). */
export function eventReadScopes (document: ApiDocument): ReadonlyMap<string, string> {
  const scopes = new Map<string, string>()
  for (const type of Object.keys((document.document.webhooks ?? {}) as JsonObject)) {
    const scope = webhookOf(document, type)?.['x-read-scope']
    if (typeof scope !== 'string') throw new Error(`webhooks.${type}: x-read-scope must name the scope a key needs to read these events`)
    scopes.set(type, scope)
  }
  return scopes
}

export function eventProblems (document: ApiDocument, emitted: EmittedEvents): string[] {
  const webhooks = document.document.webhooks ?? {}
  if (webhooks === null || typeof webhooks !== 'object' || Array.isArray(webhooks)) return ['webhooks: must map each event type to its webhook']
  const declared = Object.keys(webhooks)
  const problems = Object.keys(emitted).filter((type) => !declared.includes(type))
    .map((type) => `webhooks: the service emits ${type} events, which the document does not declare`)
  for (const type of declared) {
    const where = `webhooks.${type}`
    const carries = emitted[type]
    if (carries === undefined) {
      problems.push(`${where}: the service never emits this event type`)
      continue
    }
    const schema = envelopeSchema(document, type)
    if (typeof schema === 'string') {
      problems.push(`${where}: ${schema}, the event's envelope`)
      continue
    }
    // Whether a scheme lists it is checked with the operations' scopes (./operation-security.ts).
    if (typeof webhookOf(document, type)?.['x-read-scope'] !== 'string') problems.push(`${where}: x-read-scope must name the scope a key needs to read these events`)
    const fields = Object.keys((schema.properties ?? {}) as JsonObject)
    const sent: string[] = [...ENVELOPE_FIELDS, ...(carries.previous ? ['previous'] : [])]
    const missing = sent.filter((field) => !fields.includes(field))
    const extra = fields.filter((field) => !sent.includes(field))
    if (schema.type !== 'object') problems.push(`${where}: the envelope must be an object`)
    if (missing.length > 0) problems.push(`${where}: the envelope lacks ${missing.join(', ')}, which every ${type} event carries`)
    if (extra.length > 0) problems.push(`${where}: the envelope declares ${extra.join(', ')}, which the service never sends`)
    const typeField = (schema.properties as JsonObject | undefined)?.type as JsonObject | undefined
    if (typeField !== undefined && typeField.const !== type) problems.push(`${where}: the envelope's type must be const: ${type}`)
    if (carries.previous && missing.length === 0) problems.push(...previousProblems(document, schema, where))
  }
  const schemas = (document.document.components as JsonObject | undefined)?.schemas as JsonObject | undefined
  const enumProblem = (name: string, expected: readonly string[], what: string) => {
    const schema = schemas?.[name] as JsonObject | undefined
    if (schema === undefined) return
    const listed = (schema.enum ?? []) as string[]
    if (listed.length !== expected.length || listed.some((value) => !expected.includes(value))) {
      problems.push(`components.schemas.${name}: its enum (${listed.join(', ')}) must list exactly ${what} (${expected.join(', ')})`)
    }
  }
  enumProblem('EventType', declared, 'the types under webhooks')
  enumProblem('WebhookEventSelection', eventSelections(declared), 'the types under webhooks, <resource>.* for each of their resources, and *')
  return problems
}

/** Whether `schema` takes `null`: its type is or lists `null`, or one of its `anyOf` or `oneOf` does. */
function takesNull (document: ApiDocument, node: unknown): boolean {
  const schema = document.dereference(node as JsonObject) as JsonObject
  const type = schema.type
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true
  return [...(schema.anyOf ?? []) as unknown[], ...(schema.oneOf ?? []) as unknown[]].some((branch) => takesNull(document, branch))
}

/**
 * `previous` declares each field of `data` but `id` (which never changes), each taking
 * `null` (a field absent before the change), and nothing else: what it carries is serialized
 * from `data`'s fields (`envelopeSerializers`), and a client reads its types from here. So a
 * field added to `Pet` and not to the pet's `previous` stops the start, naming it.
 */
function previousProblems (document: ApiDocument, envelope: JsonObject, where: string): string[] {
  const properties = envelope.properties as JsonObject
  const data = document.dereference(properties.data!) as JsonObject
  const previous = document.dereference(properties.previous!) as JsonObject
  const fields = Object.keys((data.properties ?? {}) as JsonObject).filter((field) => field !== 'id')
  const declared = (previous.properties ?? {}) as JsonObject
  const problems: string[] = []
  const missing = fields.filter((field) => declared[field] === undefined)
  const extra = Object.keys(declared).filter((field) => !fields.includes(field))
  const notNull = fields.filter((field) => declared[field] !== undefined && !takesNull(document, declared[field]))
  if (missing.length > 0) problems.push(`${where}: previous lacks ${missing.join(', ')}, a field of data that a change may change`)
  if (extra.length > 0) problems.push(`${where}: previous declares ${extra.join(', ')}, which data does not have`)
  if (notNull.length > 0) problems.push(`${where}: previous must take null for ${notNull.join(', ')} (a field absent before the change)`)
  return problems
}

/** Every type of the event type's resource: `pet.*` for `pet.created`. */
export function resourceSelection (type: string): string {
  return `${type.slice(0, type.indexOf('.') + 1)}*`
}

/** What an endpoint may select among `types`: each type, every type of a resource (`pet.*`), every type (`*`). */
export function eventSelections (types: readonly string[]): string[] {
  const prefixes = new Set(types.filter((type) => type.includes('.')).map(resourceSelection))
  return [...types, ...prefixes, '*']
}

/** Whether an event of `type` is among `selections` (see `eventSelections`). */
export function selects (selections: readonly string[], type: string): boolean {
  const resource = resourceSelection(type)
  return selections.some((selection) => selection === type || selection === '*' || selection === resource)
}

/** An event as it is serialized: the envelope's fields, `previous` where the type carries it. */
export interface EventEnvelope {
  id: string
  type: string
  timestamp: string
  sequence: number | bigint
  data: unknown
  previous?: unknown
}

/**
 * A serializer for each declared event type, from its envelope schema, as response
 * serializers are built (./route-schema.ts). `previous` is serialized with the fields of
 * `data`'s schema, each of which may also be null (a field absent before the change): the
 * document declares it as any of `data`'s fields, so a field added to `Pet` is carried in
 * both with no other edit.
 */
export function envelopeSerializers (document: ApiDocument): ReadonlyMap<string, (event: EventEnvelope) => string> {
  const serializers = new Map<string, (event: EventEnvelope) => string>()
  for (const type of Object.keys((document.document.webhooks ?? {}) as JsonObject)) {
    const declared = envelopeSchema(document, type)
    if (typeof declared === 'string') throw new Error(`webhooks.${type}: ${declared}`)
    const schema = serializerSchema(document, declared)
    const properties = { ...schema.properties as JsonObject }
    if (properties.previous !== undefined) properties.previous = orNull(properties.data as JsonObject)
    serializers.set(type, serializerOf({ ...schema, properties }))
  }
  return serializers
}

/**
 * An object schema whose every property may also be null. The serializer's `nullable`
 * rather than a list of types: with a list it would refuse an int64 beyond 2^53 (a BigInt).
 */
function orNull (schema: JsonObject): JsonObject {
  const properties = Object.entries((schema.properties ?? {}) as JsonObject)
    .map(([name, property]) => [name, { ...property as JsonObject, nullable: true }])
  return { type: 'object', properties: Object.fromEntries(properties) }
}
