/**
 * Request validation, configured once for every route.
 *
 * - Query strings and path parameters are coerced ("5" becomes 5); bodies are strict JSON.
 *   An integer given as text is decimal digits only (./integer-text.ts).
 * - Defaults from the spec are applied; nothing unknown is silently removed.
 * - int64 fields are checked by the `int64` keyword (./int64-keywords.ts), because AJV
 *   knows no BigInt.
 * - Bodies are parsed without rounding (../http/json.ts).
 * - A query string is percent-encoded UTF-8, as a path is: anything else is refused.
 * - Messages name the field, and the one that failed first; an unknown field comes before
 *   a required one it may have been meant as (./unknown-first.ts).
 */
import { isUtf8 } from 'node:buffer'
import { Ajv, type ErrorObject } from 'ajv'
import standaloneCode from 'ajv/dist/standalone/index.js'
import { stringify } from 'lossless-json'
import addFormats from 'ajv-formats'
import type { FastifyInstance, FastifySchemaCompiler } from 'fastify'
import fp from 'fastify-plugin'
import { parseJson } from '../http/json.ts'
import { ApiError } from '../http/error-codes.ts'
import { acceptedMediaTypes, BODY_MEDIA_TYPES, essence, mediaTypeRefusal } from '../http/media-type.ts'
import { addInt64Keyword, useInt64Keyword } from './int64-keywords.ts'
import { integersAsDigits } from './integer-text.ts'
import { oncePerContent } from './once-per-content.ts'
import { precompiled, recordingPrecompiled } from './precompiled.ts'
import { unknownFirst } from './unknown-first.ts'

function makeAjv (coerce: boolean): Ajv {
  // validateSchema: false skips checking each schema against the JSON Schema meta-schema,
  // whose own compilation would lengthen every start; the document's schemas are checked
  // against it by the lint tests (test/contract/spec-lint.test.ts), and strict mode still refuses
  // unknown keywords and formats. While the build records, each validator keeps its code.
  const ajv = new Ajv({
    coerceTypes: coerce, useDefaults: true, removeAdditional: false, allErrors: false, strict: true, validateSchema: false, code: { source: recordingPrecompiled() }
  })
  addFormats.default(ajv)
  addInt64Keyword(ajv, { coerceStrings: coerce })
  return ajv
}

/** What the spec's patterns mean, in words; a raw regular expression helps nobody. */
const PATTERN_MESSAGES: Record<string, string> = {
  '^[!-~]{1,255}$': 'must be 1 to 255 visible ASCII characters',
  '^[^\\u0000\\p{Cs}]*$': 'must not contain NUL (U+0000) or unpaired UTF-16 surrogates',
  '^(?=[\\s\\S]*[\\p{L}\\p{N}\\p{P}\\p{S}])(?:[^\\p{Cc}\\p{Cf}\\p{Cs}]|(?<=\\p{Extended_Pictographic}[\\p{M}\\p{Emoji_Modifier}]*)\\u200D(?=\\p{Extended_Pictographic}))*$':
    'must contain a visible character and no control characters, unpaired surrogates, bidirectional controls or invisible format characters'
}

/** `body/name`, `querystring/limit`: where the failing value is. */
function describe (error: ErrorObject, dataVar: string): string {
  const where = dataVar + error.instancePath
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where} must NOT have additional property '${String(error.params.additionalProperty)}'`
    case 'enum':
      return `${where} must be one of: ${(error.params.allowedValues as unknown[]).map(String).join(', ')}`
    case 'type':
      // A type list (`[string, 'null']`) reads `must be string or null`.
      return `${where} must be ${String(error.params.type).split(',').join(' or ')}`
    case 'pattern':
      return `${where} ${PATTERN_MESSAGES[error.params.pattern as string] ?? error.message}`
    default:
      return `${where} ${error.message}`
  }
}

/**
 * The first failure, in words. A value none of an `anyOf`'s schemas takes (a status that is
 * neither a status nor null) is described by them all, as a type list would be:
 * `must be one of: available, pending, sold, null`, or `must be string or null`.
 */
function describeFirst (errors: ErrorObject[], dataVar: string): string {
  const first = errors[0]!
  const anyOf = errors.find((error) => error.keyword === 'anyOf' && error.instancePath === first.instancePath && first.schemaPath.startsWith(`${error.schemaPath}/`))
  return (anyOf === undefined ? undefined : describeAnyOf(errors, anyOf, dataVar)) ?? describe(first, dataVar)
}

function describeAnyOf (errors: ErrorObject[], anyOf: ErrorObject, dataVar: string): string | undefined {
  // Each branch's first failure, by the branch's index in the anyOf.
  const firsts = new Map<string, ErrorObject>()
  for (const error of errors) {
    if (error === anyOf || error.instancePath !== anyOf.instancePath || !error.schemaPath.startsWith(`${anyOf.schemaPath}/`)) continue
    const branch = error.schemaPath.slice(anyOf.schemaPath.length + 1).split('/')[0]!
    if (!firsts.has(branch)) firsts.set(branch, error)
  }
  const failures = [...firsts.values()]
  if (failures.length === 0 || failures.some((error) => error.keyword !== 'type' && error.keyword !== 'enum')) return undefined
  const where = dataVar + anyOf.instancePath
  const types = failures.filter((error) => error.keyword === 'type').map((error) => String(error.params.type).split(',').join(' or '))
  const enums = failures.filter((error) => error.keyword === 'enum').flatMap((error) => (error.params.allowedValues as unknown[]).map(String))
  // A value of a branch's type, not among its values: the values, and the other branches' types.
  return enums.length > 0 ? `${where} must be one of: ${[...enums, ...types].join(', ')}` : `${where} must be ${types.join(' or ')}`
}

const UTF8 = /^utf-?8$/i

/** The charset parameter of a Content-Type header, if any. */
function charsetOf (contentType: string | undefined): string | undefined {
  const match = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType ?? '')
  return match === null ? undefined : match[1] ?? match[2]
}

/**
 * Whether the query of `url` decodes as percent-encoded UTF-8. The query parser keeps what
 * it cannot decode as it is, so `tag=%FF`, `tag=%` or the bytes of a lone surrogate
 * (`%ED%A0%80`) would reach the schema as raw text, `%` and all, where a path with them is
 * already refused.
 */
function queryDecodes (url: string): boolean {
  const start = url.indexOf('?')
  if (start === -1) return true
  try {
    decodeURIComponent(url.slice(start + 1))
    return true
  } catch {
    return false
  }
}

export default fp(async function validation (app: FastifyInstance) {
  // Made when first needed: a start whose validators the build wrote needs neither.
  let strict: Ajv | undefined
  let coercing: Ajv | undefined
  const ajvFor = (part: string): Ajv => {
    if (part === 'body') return (strict ??= makeAjv(false))
    return (coercing ??= makeAjv(true))
  }
  const compileRoute: FastifySchemaCompiler<any> = ({ schema, httpPart }) => {
    const rewritten = useInt64Keyword(schema as object)
    const part = httpPart === 'body' ? 'body' : 'parameters'
    // The part, as it chooses the Ajv instance; lossless-json, as a schema may hold BigInt bounds.
    const validate = precompiled(`validator ${part} ${stringify(rewritten)}`,
      () => ajvFor(part).compile(rewritten), (compiled) => standaloneCode.default(ajvFor(part), compiled))
    return part === 'body' ? unknownFirst(rewritten, validate) : integersAsDigits(rewritten, unknownFirst(rewritten, validate))
  }
  app.setValidatorCompiler(oncePerContent((route) => `${route.httpPart === 'body' ? 'body' : 'parameters'} ${stringify(route.schema)}`, compileRoute))
  app.setSchemaErrorFormatter((errors, dataVar) => new Error(describeFirst(errors, dataVar)))
  app.addHook('preValidation', (request, _reply, done) => {
    const undecodable = request.routeOptions.schema?.querystring !== undefined && !queryDecodes(request.url)
    done(undecodable ? new ApiError('invalid_request', 'querystring must be percent-encoded UTF-8') : undefined)
  })

  // JSON only (Fastify also parses text/plain by default), merge patches included, UTF-8 only, and without
  // rounding large integers. Nothing is ever stored with U+FFFD in place of bytes it could
  // not read: another charset, or bytes that are not UTF-8, are refused.
  app.removeAllContentTypeParsers()
  app.addContentTypeParser([...BODY_MEDIA_TYPES], { parseAs: 'buffer' }, (request, body, done) => {
    // Only a media type the operation declares: Fastify validates no other (./route-schema.ts).
    const accepted = acceptedMediaTypes(request.routeOptions.schema)
    if (!accepted.includes(essence(request.headers['content-type']))) {
      return done(new ApiError('unsupported_media_type', mediaTypeRefusal(accepted)), undefined)
    }
    const charset = charsetOf(request.headers['content-type'])
    if (charset !== undefined && !UTF8.test(charset)) {
      return done(new ApiError('unsupported_media_type', `Content-Type charset must be utf-8, not ${charset.slice(0, 40)}`), undefined)
    }
    // No content is no body (RFC 9110 section 8.6), whatever the header says: many clients
    // send `Content-Type: application/json` on every request, a DELETE's included. An
    // operation whose body is required refuses it as missing (./request-shape.ts).
    if ((body as Buffer).length === 0) return done(null, undefined)
    if (!isUtf8(body as Buffer)) return done(new ApiError('invalid_json', 'Body is not valid UTF-8'), undefined)
    try {
      done(null, parseJson((body as Buffer).toString('utf8')))
    } catch (error) {
      // lossless-json parses by recursion; a body nested deeper than the stack is refused in words.
      const reason = error instanceof RangeError ? 'it is nested too deeply' : (error as Error).message
      done(new ApiError('invalid_json', `Body is not valid JSON: ${reason}`), undefined)
    }
  })
}, { name: 'validation' })
