/**
 * What an operation's `security` asks for, as the service understands it: the bearer key
 * (an `http` scheme `bearer`) holding the scopes it names, or nothing. Any other scheme
 * stops the start, rather than leaving an operation open that the document says is
 * protected.
 *
 * The scopes a key can hold are listed on the bearer scheme (`x-scopes`, each with what it
 * allows); an operation names the ones it needs (`bearerAuth: [pets:write]`, which OpenAPI
 * 3.1 allows for any scheme). A scope named but not listed stops the start: a typo would
 * otherwise lock every key out of the operation.
 *
 * A `:write` scope includes the `:read` scope of the same resource (./scope-inclusion.ts).
 */
import type { ApiDocument, JsonObject } from './document.ts'
import { webhookOf } from './webhooks.ts'

/**
 * The scopes a key needs for an operation (the document's own requirement when the
 * operationId is undefined): alternatives, any one of which is enough, each the scopes it
 * needs together. Undefined when the operation needs no key at all.
 */
export function requiredScopes (document: ApiDocument, operationId: string | undefined): string[][] | undefined {
  const requirements = operationId === undefined
    ? (document.document.security ?? []) as JsonObject[]
    : document.security(operationId)
  // No requirement, or an empty one among alternatives, means anyone may call it.
  if (requirements.length === 0 || requirements.some((requirement) => Object.keys(requirement).length === 0)) return undefined
  const schemes = securitySchemes(document)
  return requirements.map((requirement) => Object.entries(requirement).flatMap(([name, scopes]) => {
    const scheme = schemes[name] as JsonObject | undefined
    if (!isBearer(scheme)) {
      throw new Error(`${operationId ?? 'the document'}: security scheme ${name} is not supported; only an http bearer scheme is`)
    }
    return scopes as string[]
  }))
}

/** The scopes a key can hold, in the document's order, with what each allows. */
export function declaredScopes (document: ApiDocument): ReadonlyMap<string, string> {
  const scopes = new Map<string, string>()
  for (const scheme of Object.values(securitySchemes(document)) as JsonObject[]) {
    if (!isBearer(scheme)) continue
    for (const [name, description] of Object.entries((scheme['x-scopes'] ?? {}) as JsonObject)) scopes.set(name, String(description))
  }
  return scopes
}

/** What the document's security says that the service could not honour (./start-checks.ts). */
export function securityProblems (document: ApiDocument): string[] {
  const problems: string[] = []
  for (const [name, scheme] of Object.entries(securitySchemes(document)) as Array<[string, JsonObject]>) {
    const scopes = scheme['x-scopes']
    if (scopes === undefined) continue
    if (!isBearer(scheme)) problems.push(`securitySchemes.${name}: x-scopes is read on an http bearer scheme only`)
    else if (scopes === null || typeof scopes !== 'object' || Array.isArray(scopes) || Object.values(scopes).some((text) => typeof text !== 'string')) {
      problems.push(`securitySchemes.${name}: x-scopes must map each scope to the text that says what it allows`)
    } else {
      for (const scope of Object.keys(scopes)) {
        if (!SCOPE.test(scope)) problems.push(`securitySchemes.${name}: the scope "${scope}" is not one word of visible characters (RFC 6749 section 3.3)`)
      }
    }
  }
  // The scopes named below are judged against the lists, so those must be sound first.
  if (problems.length > 0) return problems
  const declared = declaredScopes(document)
  const named: Array<[string, JsonObject[]]> = [['the document', (document.document.security ?? []) as JsonObject[]],
    ...[...document.operations.values()].map((op): [string, JsonObject[]] => [op.operationId, document.security(op.operationId)])]
  for (const [where, requirements] of named) {
    for (const scope of requirements.flatMap((requirement) => Object.values(requirement).flat() as string[])) {
      if (!declared.has(scope)) problems.push(`${where}: its security names the scope "${scope}", which no bearer scheme's x-scopes lists`)
    }
  }
  // The scope each event type is read under (./webhooks.ts, where one missing is named).
  for (const type of Object.keys((document.document.webhooks ?? {}) as JsonObject)) {
    const scope = webhookOf(document, type)?.['x-read-scope']
    if (typeof scope === 'string' && !declared.has(scope)) problems.push(`webhooks.${type}: its x-read-scope names the scope "${scope}", which no bearer scheme's x-scopes lists`)
  }
  return problems
}

/** A scope token as RFC 6749 section 3.3 allows it: visible ASCII but the quote and the backslash. */
const SCOPE = /^[!#-[\]-~]+$/

function securitySchemes (document: ApiDocument): JsonObject {
  return ((document.document.components as JsonObject | undefined)?.securitySchemes ?? {}) as JsonObject
}

function isBearer (scheme: JsonObject | undefined): boolean {
  return scheme?.type === 'http' && String(scheme.scheme).toLowerCase() === 'bearer'
}
