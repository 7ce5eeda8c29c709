/**
 * What an operation's `security` asks for, as the service understands it: the bearer key
 * (an `http` scheme `bearer`), or nothing. Any other scheme stops the start, rather than
 * leaving an operation open that the document says is protected.
 */
import type { ApiDocument, JsonObject } from './document.ts'

/** Whether the operation needs a bearer key. */
export function needsBearerKey (document: ApiDocument, operationId: string | undefined): boolean {
  const requirements = operationId === undefined
    ? (document.document.security ?? []) as JsonObject[]
    : document.security(operationId)
  // No requirement, or an empty one among alternatives, means anyone may call it.
  if (requirements.length === 0 || requirements.some((requirement) => Object.keys(requirement).length === 0)) return false
  const schemes = ((document.document.components as JsonObject | undefined)?.securitySchemes ?? {}) as JsonObject
  for (const name of requirements.flatMap((requirement) => Object.keys(requirement))) {
    const scheme = schemes[name] as JsonObject | undefined
    if (scheme?.type !== 'http' || String(scheme.scheme).toLowerCase() !== 'bearer') {
      throw new Error(`${operationId ?? 'the document'}: security scheme ${name} is not supported; only an http bearer scheme is`)
    }
  }
  return true
}
