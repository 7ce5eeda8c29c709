/**
 * The Fastify route schema of an operation, taken from its document: parameters, body and
 * responses as JSON schemas, so no schema is written twice.
 */
import type { FastifySchema, FastifySerializerCompiler } from 'fastify'
import fastJsonStringify from 'fast-json-stringify'
import { put, type ApiDocument, type Json, type JsonObject } from './document.ts'
import { oncePerContent } from './once-per-content.ts'
import { precompiled } from './precompiled.ts'

// OpenAPI keywords that are not JSON Schema; AJV's strict mode would refuse them.
const OPENAPI_ONLY = new Set(['example', 'discriminator', 'xml', 'externalDocs'])

/**
 * A dereferenced schema without OpenAPI-only keywords, ready for AJV and the serializer: a
 * copy, which leaves the document as it is. Written as loops: a start copies every
 * operation's schemas, and the chained `Object.entries` form of this walk made arrays for
 * every node it passed, which showed in a start's time.
 */
function jsonSchema (document: ApiDocument, node: Json): JsonObject {
  return strip(document.dereference(node)) as JsonObject
}

function strip (value: Json): Json {
  if (Array.isArray(value)) return value.map(strip)
  if (value === null || typeof value !== 'object') return value
  const copy: JsonObject = {}
  for (const key of Object.keys(value)) {
    if (OPENAPI_ONLY.has(key) || key.startsWith('x-')) continue
    put(copy, key, key === 'properties' ? stripEach(value[key] as JsonObject) : strip(value[key]!))
  }
  return copy
}

/** Under `properties` the keys are property names, which may well start with `x-`. */
function stripEach (properties: JsonObject): JsonObject {
  const copy: JsonObject = {}
  for (const name of Object.keys(properties)) put(copy, name, strip(properties[name]!))
  return copy
}

/**
 * The serializer only needs types and property names, and may copy schemas with
 * JSON.stringify, so BigInt bounds become plain numbers in response schemas.
 */
function withoutBigInts (node: Json): Json {
  if (typeof node === 'bigint') return Number(node)
  if (Array.isArray(node)) return node.map(withoutBigInts)
  if (node === null || typeof node !== 'object') return node
  const copy: JsonObject = {}
  for (const key of Object.keys(node)) put(copy, key, withoutBigInts(node[key]!))
  return copy
}

/**
 * Query, path or header parameters as one object schema. Unknown query and path
 * parameters are refused, so an operation without query parameters refuses any; a
 * request carries many headers the document does not name.
 */
function parameterSchema (document: ApiDocument, parameters: JsonObject[], location: 'query' | 'path' | 'header'): JsonObject | undefined {
  const chosen = parameters.filter((parameter) => parameter.in === location)
  if (chosen.length === 0 && location !== 'query') return undefined
  // Node gives header names in lower case.
  const name = (parameter: JsonObject) => location === 'header' ? (parameter.name as string).toLowerCase() : parameter.name as string
  return {
    type: 'object',
    properties: Object.fromEntries(chosen.map((p) => [name(p), jsonSchema(document, p.schema!)])),
    required: chosen.filter((p) => p.required === true).map(name),
    additionalProperties: location === 'header'
  }
}

/**
 * Response schemas as the serializer takes them, by the schema of the document each was
 * made from: most are a few schemas (Error, Pet) under many statuses of many operations,
 * and copying each again for every one was most of what a start spent here. Shared by the
 * routes, as the serializers made from them are (./once-per-content.ts): nothing changes
 * a route's schemas once they are made.
 */
const serializerSchemas = new WeakMap<object, JsonObject>()

/** A schema of the document as a response serializer takes it (see `sharedSerializers`). */
export function serializerSchema (document: ApiDocument, node: Json): JsonObject {
  if (node === null || typeof node !== 'object') return withoutBigInts(jsonSchema(document, node)) as JsonObject
  let made = serializerSchemas.get(node)
  if (made === undefined) serializerSchemas.set(node, made = withoutBigInts(jsonSchema(document, node)) as JsonObject)
  return made
}

export function routeSchema (document: ApiDocument, operationId: string): FastifySchema {
  const { operation: op } = document.operation(operationId)
  const parameters = document.parameters(operationId)
  const body = document.dereference(op.requestBody ?? null) as JsonObject | null
  const responses = Object.entries(document.dereference(op.responses!) as JsonObject).flatMap(([status, response]) => {
    const content = (response as JsonObject).content as JsonObject | undefined
    const schema = (content?.['application/json'] as JsonObject | undefined)?.schema
    return schema === undefined ? [] : [[status, serializerSchema(document, schema)] as const]
  })
  const schema: FastifySchema = { response: Object.fromEntries(responses) }
  const querystring = parameterSchema(document, parameters, 'query')
  const params = parameterSchema(document, parameters, 'path')
  const headers = parameterSchema(document, parameters, 'header')
  if (querystring !== undefined) schema.querystring = querystring
  if (params !== undefined) schema.params = params
  if (headers !== undefined) schema.headers = headers
  const bodies = Object.entries((body?.content ?? {}) as JsonObject)
    .map(([mediaType, content]) => [mediaType, jsonSchema(document, (content as JsonObject).schema ?? {})] as const)
  // JSON alone: the plain form, its validator the route's own. Otherwise one validator per
  // media type, and the body parser (./validation.ts) refuses any the operation does not
  // declare, since Fastify would not validate a body of a media type without a schema.
  if (bodies.length === 1 && bodies[0]![0] === 'application/json') schema.body = bodies[0]![1]
  else if (bodies.length > 0) schema.body = { content: Object.fromEntries(bodies.map(([mediaType, body]) => [mediaType, { schema: body }])) }
  return schema
}

/**
 * A serializer of `schema`, built by fast-json-stringify as Fastify's own compiler builds
 * it, or written by the build (./precompiled.ts).
 */
export function serializerOf (schema: JsonObject): (data: any) => string {
  const declared = schema as unknown as Parameters<typeof fastJsonStringify>[0]
  return precompiled(`serializer ${JSON.stringify(schema)}`,
    () => fastJsonStringify(declared),
    () => fastJsonStringify(declared, { mode: 'standalone', inlineValidators: true }) as unknown as string)
}

/**
 * Response serializers, once per distinct schema (./once-per-content.ts). Response schemas
 * hold no BigInts (see withoutBigInts), so JSON is their exact text.
 */
export const sharedSerializers = (): FastifySerializerCompiler<JsonObject> =>
  oncePerContent(({ schema }) => JSON.stringify(schema), ({ schema }) => serializerOf(schema))
