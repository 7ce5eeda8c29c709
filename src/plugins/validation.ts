/**
 * Request validation, configured once for every route.
 *
 * - Query strings and path parameters are coerced ("5" becomes 5); bodies are strict JSON.
 * - Defaults from the spec are applied; nothing unknown is silently removed.
 * - int64 fields are checked by the `int64` keyword (../validation/int64.ts), because AJV
 *   knows no BigInt.
 * - Bodies are parsed without rounding (../json.ts).
 * - Messages name the field, and the one that failed first.
 */
import { Ajv, type ErrorObject } from 'ajv'
import addFormats from 'ajv-formats'
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify'
import fp from 'fastify-plugin'
import { parseJson } from '../json.ts'
import { ApiError } from '../errors.ts'
import { addInt64Keyword, useInt64Keyword } from '../validation/int64.ts'

function makeAjv (coerce: boolean): Ajv {
  const ajv = new Ajv({ coerceTypes: coerce, useDefaults: true, removeAdditional: false, allErrors: false, strict: true })
  addFormats.default(ajv)
  addInt64Keyword(ajv, { coerceStrings: coerce })
  return ajv
}

/** What the spec's patterns mean, in words; a raw regular expression helps nobody. */
const PATTERN_MESSAGES: Record<string, string> = {
  '^[^\\p{Cc}\\p{Cs}]*[^\\p{Cc}\\p{Cs}\\s][^\\p{Cc}\\p{Cs}]*$':
    'must contain a visible character and no control characters or unpaired surrogates'
}

/** `body/name`, `querystring/limit`: where the failing value is. */
function describe (error: ErrorObject, dataVar: string): string {
  const where = dataVar + error.instancePath
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where} must NOT have additional property '${String(error.params.additionalProperty)}'`
    case 'enum':
      return `${where} must be one of: ${(error.params.allowedValues as unknown[]).join(', ')}`
    case 'pattern':
      return `${where} ${PATTERN_MESSAGES[error.params.pattern as string] ?? error.message}`
    default:
      return `${where} ${error.message}`
  }
}

export default fp(async function validation (app: FastifyInstance) {
  const strict = makeAjv(false)
  const coercing = makeAjv(true)
  const compile: FastifySchemaCompiler<any> = ({ schema, httpPart }) =>
    (httpPart === 'body' ? strict : coercing).compile(useInt64Keyword(schema as object))
  app.setValidatorCompiler(compile)
  app.setSchemaErrorFormatter((errors, dataVar) => new Error(describe(errors[0]!, dataVar)))

  // JSON only (Fastify also parses text/plain by default), and without rounding large integers.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    try {
      done(null, parseJson(body as string))
    } catch (error) {
      done(new ApiError('invalid_json', `Body is not valid JSON: ${(error as Error).message}`), undefined)
    }
  })
}, { name: 'validation' })
