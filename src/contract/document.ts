/**
 * An OpenAPI document, read once at start. The service's own is `apiDocument`
 * (spec/openapi.yaml); tests load fixtures through the same class. Everything derived from
 * a document (routes, schemas, headers, the docs page) asks this class, so nothing is
 * written twice.
 */
import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { stringify } from 'lossless-json'
import { parse } from 'yaml'
import { parseJson } from '../http/json.ts'

export type Json = null | boolean | number | bigint | string | Json[] | { [key: string]: Json }
export type JsonObject = { [key: string]: Json }

export interface Operation {
  operationId: string
  /** Upper case: `GET`, `POST`, ... */
  method: string
  /** The path relative to the server URL, in Fastify's form (`/pets/:petId`). */
  url: string
  /** The path as the document writes it (`/pets/{petId}`). */
  path: string
  /** The operation object itself, `$ref`s unresolved. */
  operation: JsonObject
}

/** `copy[key] = value`, where a key `__proto__` (a property's name may be anything) stays a property. */
export function put (copy: JsonObject, key: string, value: Json): void {
  if (key === '__proto__') Object.defineProperty(copy, key, { value, enumerable: true, writable: true, configurable: true })
  else copy[key] = value
}

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace']

export class ApiDocument {
  /** The document as written. */
  readonly yaml: string
  /**
   * The parsed document. YAML integers become numbers, except those a double cannot hold
   * (the int64 maximum), which stay exact BigInts.
   */
  readonly document: JsonObject
  /** The document as JSON, with every integer digit for digit. */
  readonly json: string
  /** Every operation, keyed by operationId, in document order. */
  readonly operations: ReadonlyMap<string, Operation>
  /** The path of the first server (`/v1`): the prefix every operation is served under. */
  readonly prefix: string

  /** Each `$ref` target inlined once: `dereference` is asked for the same ones again and again. */
  readonly #dereferenced = new Map<string, Json>()

  /** `built`: the document already parsed from `yaml`, and its JSON, by the build (see `read`). */
  constructor (yaml: string, readonly source = 'the OpenAPI document', built?: { document: JsonObject, json: string }) {
    this.yaml = yaml
    this.document = built?.document ?? parse(yaml, (_key, value) =>
      typeof value === 'bigint' && Number.isSafeInteger(Number(value)) ? Number(value) : value,
    { intAsBigInt: true }) as JsonObject
    this.json = built?.json ?? stringify(this.document) as string
    this.operations = new Map(Object.entries(this.document.paths as JsonObject).flatMap(([path, item]) =>
      Object.entries(item as JsonObject)
        .filter(([method]) => HTTP_METHODS.includes(method))
        .map(([method, operation]): [string, Operation] => {
          const op = operation as JsonObject
          const operationId = op.operationId
          if (typeof operationId !== 'string') throw new Error(`${source}: ${method.toUpperCase()} ${path} has no operationId`)
          return [operationId, { operationId, method: method.toUpperCase(), url: path.replace(/\{([^}]+)\}/g, ':$1'), path, operation: op }]
        })))
    this.prefix = serverPath(this.document, source)
  }

  /**
   * Reads a YAML document. The build (`npm run build`) also writes it as JSON beside the
   * YAML in dist/spec/ (this class's `json`); when that is there, it is read instead, since
   * parsing YAML is the larger part of the start. Integers keep every digit either way:
   * the build lists those a double cannot hold in a third file (`bigIntegers`), so the JSON
   * is parsed by `JSON.parse`, far faster than a parser that keeps every digit itself,
   * and those few are put back. A list made for another JSON is not used.
   */
  static read (file: URL, source = String(file)): ApiDocument {
    const yaml = readFileSync(file, 'utf8')
    const jsonFile = new URL(file.href.replace(/\.ya?ml$/, '.json'))
    if (jsonFile.href === file.href || !existsSync(jsonFile)) return new ApiDocument(yaml, source)
    const json = readFileSync(jsonFile, 'utf8')
    const integersFile = new URL(file.href.replace(/\.ya?ml$/, BIG_INTEGERS_SUFFIX))
    const integers = existsSync(integersFile) ? JSON.parse(readFileSync(integersFile, 'utf8')) as BigIntegers : undefined
    return new ApiDocument(yaml, source, { document: withBigIntegers(json, integers) ?? parseJson(json) as JsonObject, json })
  }

  operation (operationId: string): Operation {
    const found = this.operations.get(operationId)
    if (found === undefined) throw new Error(`${this.source}: no operation ${operationId}`)
    return found
  }

  /** Resolves a `#/...` JSON pointer inside the document. */
  resolve (ref: string): Json {
    if (!ref.startsWith('#/')) throw new Error(`only local $refs are supported: ${ref}`)
    return ref.slice(2).split('/').reduce<Json>((node, token) => {
      const key = token.replaceAll('~1', '/').replaceAll('~0', '~')
      const next = (node as JsonObject)[key]
      if (next === undefined) throw new Error(`unresolvable $ref ${ref}`)
      return next
    }, this.document)
  }

  /**
   * `node` with every `$ref` inlined, so it stands alone. The document has no recursive
   * schemas. What a `$ref` points to is inlined once and shared by every result that refers
   * to it: a caller reads a result, and copies what it would change.
   */
  dereference (node: Json): Json {
    if (Array.isArray(node)) return node.map((item) => this.dereference(item))
    if (node === null || typeof node !== 'object') return node
    if (typeof node.$ref === 'string') {
      const ref = node.$ref
      let target = this.#dereferenced.get(ref)
      if (target === undefined) this.#dereferenced.set(ref, target = this.dereference(this.resolve(ref)))
      return target
    }
    // A loop, not `Object.fromEntries(Object.entries(...))`: a start dereferences every operation.
    const copy: JsonObject = {}
    for (const key of Object.keys(node)) put(copy, key, this.dereference(node[key]!))
    return copy
  }

  /**
   * The parameters of an operation, `$ref`s resolved: those of its path item, less any the
   * operation declares again (same name and location), then its own.
   */
  parameters (operationId: string): JsonObject[] {
    const { path, operation } = this.operation(operationId)
    const own = this.dereference(operation.parameters ?? []) as JsonObject[]
    const item = (this.document.paths as JsonObject)[path] as JsonObject
    const shared = (this.dereference(item.parameters ?? []) as JsonObject[])
      .filter((parameter) => !own.some((mine) => mine.in === parameter.in && mine.name === parameter.name))
    return [...shared, ...own]
  }

  /** The security requirements of an operation: its own, else the document's. */
  security (operationId: string): JsonObject[] {
    const { operation } = this.operation(operationId)
    return (operation.security ?? this.document.security ?? []) as JsonObject[]
  }
}

/** Beside a document's JSON, the integers of it a double cannot hold (`bigIntegers`). */
export const BIG_INTEGERS_SUFFIX = '.big-integers.json'

/** An integer a double cannot hold: the keys that lead to it, and its digits. */
type BigInteger = [path: string[], digits: string]

/** The file beside the JSON: its integers a double cannot hold, and the hash of the JSON they belong to. */
interface BigIntegers { json: string, integers: BigInteger[] }

const hashOf = (json: string) => createHash('sha256').update(json).digest('base64url')

/** Every BigInt of the document parsed from `json`, where `withBigIntegers` puts them back. */
export function bigIntegers (json: string, document: Json): BigIntegers {
  const found = (node: Json, path: string[]): BigInteger[] => {
    if (typeof node === 'bigint') return [[path, String(node)]]
    if (node === null || typeof node !== 'object') return []
    return Object.keys(node).flatMap((key) => found((node as JsonObject)[key]!, [...path, key]))
  }
  return { json: hashOf(json), integers: found(document, []) }
}

/** `json` parsed by `JSON.parse`, its large integers put back digit for digit; undefined for a list of another JSON's. */
function withBigIntegers (json: string, list: BigIntegers | undefined): JsonObject | undefined {
  if (list?.json !== hashOf(json)) return undefined
  const document = JSON.parse(json) as JsonObject
  for (const [path, digits] of list.integers) {
    const parent = path.slice(0, -1).reduce<Json>((node, key) => (node as JsonObject)[key]!, document) as JsonObject
    parent[path.at(-1)!] = BigInt(digits)
  }
  return document
}

/** The path of the document's first server; a relative URL (`/v1`) is taken as it is. */
function serverPath (document: JsonObject, source: string): string {
  const url = ((document.servers as JsonObject[] | undefined)?.[0]?.url) as string | undefined
  if (url === undefined) throw new Error(`${source}: the first server names the path prefix, and there is none`)
  return new URL(url, 'http://localhost').pathname.replace(/\/$/, '')
}

export const specPath = new URL('../../spec/openapi.yaml', import.meta.url)

/** The service's own document, spec/openapi.yaml. */
export const apiDocument = ApiDocument.read(specPath, 'spec/openapi.yaml')
