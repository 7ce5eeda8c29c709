/**
 * Checks an answer against the OpenAPI document: its status is one the operation declares,
 * its body matches that response's schema, and each declared header that is present
 * matches its schema.
 */
import { Ajv, type ValidateFunction } from 'ajv'
import addFormats from 'ajv-formats'
import type { LightMyRequestResponse } from 'fastify'
import { stringify } from 'lossless-json'
import { apiDocument } from '../../src/contract/document.ts'

const ajv = new Ajv({ strict: false, allErrors: true })
addFormats.default(ajv)
const compiled = new Map<unknown, ValidateFunction>()

function validator (schema: object): ValidateFunction {
  let validate = compiled.get(schema)
  if (validate === undefined) {
    // BigInt bounds (the int64 maximum) become numbers: AJV compares doubles anyway.
    validate = ajv.compile(JSON.parse(JSON.stringify(schema, (_key, value) => typeof value === 'bigint' ? Number(value) : value)))
    compiled.set(schema, validate)
  }
  return validate
}

/**
 * Whether `schema` takes `value` as the service receives it: sent as JSON text (NaN and
 * Infinity become null), with BigInts read as the doubles AJV compares.
 */
export function accepts (schema: object, value: unknown): boolean {
  const text = stringify(value) as string | undefined
  return text !== undefined && validator(schema)(JSON.parse(text))
}

/** What is wrong with `response` for `operationId`; an empty list when nothing is. */
export function contractViolations (operationId: string, response: LightMyRequestResponse): string[] {
  const declared = apiDocument.dereference(apiDocument.operation(operationId).operation.responses!) as Record<string, any>
  const spec = declared[String(response.statusCode)]
  if (spec === undefined) return [`status ${response.statusCode} is not declared for ${operationId}`]
  const problems: string[] = []
  const schema = spec.content?.['application/json']?.schema
  if (schema !== undefined) {
    if (!String(response.headers['content-type']).startsWith('application/json')) problems.push(`content-type ${String(response.headers['content-type'])}`)
    const validate = validator(schema)
    let body: unknown
    try { body = JSON.parse(response.body) } catch { problems.push(`body is not JSON: ${response.body.slice(0, 100)}`) }
    if (body !== undefined && !validate(body)) problems.push(`body: ${ajv.errorsText(validate.errors)}: ${response.body.slice(0, 200)}`)
    const error = body as { status?: unknown }
    if (response.statusCode >= 400 && error?.status !== response.statusCode) problems.push(`Error status ${String(error?.status)} differs from ${response.statusCode}`)
  }
  for (const [name, header] of Object.entries(spec.headers ?? {}) as Array<[string, any]>) {
    const value = response.headers[name.toLowerCase()]
    if (value === undefined) continue
    const text = String(value)
    const typed = header.schema.type === 'integer' ? (/^-?\d+$/.test(text) ? Number(text) : text) : text
    const validate = validator(header.schema)
    if (!validate(typed)) problems.push(`header ${name}: ${ajv.errorsText(validate.errors)}: ${text}`)
  }
  return problems
}
