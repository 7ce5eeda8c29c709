/**
 * An unknown field named before the required one it was probably meant to be.
 *
 * AJV checks `required` before `additionalProperties`, and stops at the first failure
 * (`allErrors` is off, as it should be for a server), so `{"name":"Rex","categoryID":1}` was
 * refused for its missing `categoryId`, and the typo that caused it went unnamed. When a body
 * fails for a missing property of an object that refuses unknown ones, and that object holds
 * an unknown one, the unknown one is the failure reported, as AJV words it
 * (`must NOT have additional property 'categoryID'`). Inside an `anyOf` or a `oneOf` another
 * branch may know the field, so there AJV's failure stands.
 */
import type { ErrorObject, ValidateFunction } from 'ajv'

type Schema = { properties?: Record<string, unknown>, additionalProperties?: unknown }

/** The value at a JSON pointer (`/a/0/b`), or undefined where there is none. */
function at (root: unknown, pointer: string): unknown {
  let value = root
  for (const token of pointer.split('/').slice(1)) {
    if (value === null || typeof value !== 'object') return undefined
    const key = token.replace(/~1/g, '/').replace(/~0/g, '~')
    if (!Object.hasOwn(value, key)) return undefined
    value = (value as Record<string, unknown>)[key]
  }
  return value
}

/** For a `required` failure, the same object's first unknown property as an AJV error; else undefined. */
function unknownInstead (schema: unknown, error: ErrorObject, data: unknown): ErrorObject | undefined {
  if (error.keyword !== 'required' || !error.schemaPath.startsWith('#/') || /\/(anyOf|oneOf|not|if|then|else)\//.test(error.schemaPath)) return undefined
  const objectPath = error.schemaPath.slice(1, -'/required'.length)
  const object = at(schema, objectPath) as Schema | undefined
  const value = at(data, error.instancePath)
  if (object?.additionalProperties !== false || value === null || typeof value !== 'object' || Array.isArray(value)) return undefined
  const known = object.properties ?? {}
  const unknown = Object.keys(value).find((name) => !Object.hasOwn(known, name))
  if (unknown === undefined) return undefined
  return {
    instancePath: error.instancePath,
    schemaPath: `#${objectPath}/additionalProperties`,
    keyword: 'additionalProperties',
    params: { additionalProperty: unknown },
    message: 'must NOT have additional properties'
  }
}

/** `validate`, compiled from `schema`, reporting an unknown property before a missing one of the same object. */
export function unknownFirst<T> (schema: unknown, validate: ValidateFunction<T>): ValidateFunction<T> {
  const checked = function (data: any, context?: any): boolean {
    const valid = validate(data, context)
    const first = validate.errors?.[0]
    const instead = valid || first === undefined ? undefined : unknownInstead(schema, first, data)
    checked.errors = instead === undefined ? validate.errors : [instead]
    return valid
  } as ValidateFunction<T>
  // Fastify reads `schemaEnv` to tell an AJV function, which may replace the root value.
  return Object.assign(checked, { schema: validate.schema, schemaEnv: validate.schemaEnv })
}
