/**
 * The OpenAPI document, read once at start: the docs serve it, and every route takes its
 * JSON schemas from it, so no schema is written twice.
 */
import { readFileSync } from 'node:fs'
import { stringify } from 'lossless-json'
import { parse } from 'yaml'
import type { FastifySchema } from 'fastify'

type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

export const specPath = new URL('../spec/openapi.yaml', import.meta.url)

/** The document exactly as written in spec/openapi.yaml. */
export const specYaml = readFileSync(specPath, 'utf8')

/**
 * The parsed document. YAML integers become numbers, except those a double cannot hold
 * (the int64 maximum), which stay exact BigInts.
 */
export const specDocument = parse(specYaml, (_key, value) =>
  typeof value === 'bigint' && Number.isSafeInteger(Number(value)) ? Number(value) : value,
{ intAsBigInt: true }) as JsonObject

/** The document as JSON, with every integer digit for digit. */
export const specJson = stringify(specDocument) as string

/** The same document with BigInts as (rounded) numbers, for consumers that use JSON.stringify. */
export const specDocumentForDocs = JSON.parse(specJson) as Record<string, unknown>

/** Resolves a `#/...` JSON pointer inside the document. */
function resolvePointer (ref: string): Json {
  if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported: ${ref}`)
  return ref.slice(2).split('/').reduce<Json>((node, token) => {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~')
    const next = (node as JsonObject)[key]
    if (next === undefined) throw new Error(`unresolvable $ref ${ref}`)
    return next
  }, specDocument)
}

/** Inlines every `$ref`, so the result stands alone. The document has no recursive schemas. */
export function dereference (node: Json): Json {
  if (Array.isArray(node)) return node.map(dereference)
  if (node === null || typeof node !== 'object') return node
  if (typeof node.$ref === 'string') return dereference(resolvePointer(node.$ref))
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, dereference(value)]))
}

// OpenAPI keywords that are not JSON Schema; AJV's strict mode would refuse them.
const OPENAPI_ONLY = new Set(['example', 'discriminator', 'xml', 'externalDocs'])

/** A dereferenced schema without OpenAPI-only keywords, ready for AJV and the serializer. */
function jsonSchema (node: Json): JsonObject {
  const strip = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(strip)
    if (value === null || typeof value !== 'object') return value
    return Object.fromEntries(Object.entries(value)
      .filter(([key]) => !OPENAPI_ONLY.has(key) && !key.startsWith('x-'))
      .map(([key, inner]) => [key, key === 'properties' ? stripEach(inner) : strip(inner)]))
  }
  // Under `properties` the keys are property names, which may well start with `x-`.
  const stripEach = (properties: Json): Json =>
    Object.fromEntries(Object.entries(properties as JsonObject).map(([name, schema]) => [name, strip(schema)]))
  return strip(dereference(node)) as JsonObject
}

export interface Operation {
  method: string
  /** The path relative to the server URL, in Fastify's form (`/pets/:petId`). */
  url: string
  /** The path as the document writes it (`/pets/{petId}`). */
  path: string
  operation: JsonObject
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

/** Every operation of the document, keyed by operationId. */
export const operations: ReadonlyMap<string, Operation> = new Map(
  Object.entries(specDocument.paths as JsonObject).flatMap(([path, item]) =>
    Object.entries(item as JsonObject)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => {
        const op = operation as JsonObject
        return [op.operationId as string, {
          method: method.toUpperCase(),
          url: path.replace(/\{([^}]+)\}/g, ':$1'),
          path,
          operation: op
        }] as const
      })))

export function operation (operationId: string): Operation {
  const found = operations.get(operationId)
  if (found === undefined) throw new Error(`no operation ${operationId} in spec/openapi.yaml`)
  return found
}

/**
 * The serializer only needs types and property names, and may copy schemas with
 * JSON.stringify, so BigInt bounds become plain numbers in response schemas.
 */
function withoutBigInts (node: Json): Json {
  if (typeof node === 'bigint') return Number(node)
  if (Array.isArray(node)) return node.map(withoutBigInts)
  if (node === null || typeof node !== 'object') return node
  return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, withoutBigInts(value)]))
}

/** Query or path parameters as one object schema. Unknown parameters are refused. */
function parameterSchema (parameters: JsonObject[], location: 'query' | 'path'): JsonObject | undefined {
  const chosen = parameters.filter((parameter) => parameter.in === location)
  if (chosen.length === 0) return undefined
  return {
    type: 'object',
    properties: Object.fromEntries(chosen.map((p) => [p.name as string, jsonSchema(p.schema!)])),
    required: chosen.filter((p) => p.required === true).map((p) => p.name as string),
    additionalProperties: false
  }
}

/** The Fastify route schema of an operation: parameters, body and responses. */
export function routeSchema (operationId: string): FastifySchema {
  const { operation: op } = operation(operationId)
  const parameters = ((op.parameters ?? []) as Json[]).map((p) => dereference(p) as JsonObject)
  const body = (dereference(op.requestBody ?? null) as JsonObject | null)
  const bodySchema = (body?.content as JsonObject | undefined)?.['application/json'] as JsonObject | undefined
  const responses = Object.entries(dereference(op.responses!) as JsonObject).flatMap(([status, response]) => {
    const content = (response as JsonObject).content as JsonObject | undefined
    const schema = (content?.['application/json'] as JsonObject | undefined)?.schema
    return schema === undefined ? [] : [[status, withoutBigInts(jsonSchema(schema))] as const]
  })
  const schema: FastifySchema = { response: Object.fromEntries(responses) }
  const querystring = parameterSchema(parameters, 'query')
  const params = parameterSchema(parameters, 'path')
  if (querystring !== undefined) schema.querystring = querystring
  if (params !== undefined) schema.params = params
  if (bodySchema?.schema !== undefined) schema.body = jsonSchema(bodySchema.schema)
  return schema
}
