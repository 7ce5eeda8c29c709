/**
 * Clients that consumers' own generators make from the served document compile, strict, at
 * the generators' default flags, so that an edit of the document cannot break them
 * silently (@hey-api/openapi-ts: ./third-party-client.test.ts):
 * - openapi-typescript with openapi-fetch, as their README shows: a call of every operation
 *   with its required fields only (a field with a default stays optional), and the
 *   webhooks' bodies and headers read as a receiver reads them (`previous` typed per event,
 *   the signature headers declared);
 * - openapi-zod-client's zod schemas and client (a nullable enum written as `anyOf` with
 *   `null`, which it reads, where a type list with `null` in the enum did not compile).
 * Each runs offline, from its command line, in a consumer's folder.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { apiDocument } from '../../src/contract/document.ts'
import type { JsonObject } from '../../src/contract/document.ts'
import { build } from '../helpers/app.ts'
import { CONSUMER_ENV, run, typeCheck } from '../helpers/consumer.ts'
import { tempDir } from '../helpers/process.ts'

const root = new URL('../../', import.meta.url).pathname
const bin = (name: string) => join(root, 'node_modules/.bin', name)
const BUNDLER_PROJECT = { module: 'ESNext', moduleResolution: 'Bundler', lib: ['ES2022', 'DOM', 'DOM.Iterable'], skipLibCheck: true }

/** The served document in a consumer's folder, with `modules` (name → folder) as its node_modules. */
async function consumerWithDocument (t: Parameters<typeof tempDir>[0], modules: Record<string, string>): Promise<string> {
  const app = await build(t)
  const served = await app.inject({ url: '/openapi.json' })
  t.equal(served.statusCode, 200)
  const dir = tempDir(t)
  writeFileSync(join(dir, 'openapi.json'), served.body)
  for (const [name, folder] of Object.entries(modules)) {
    mkdirSync(join(dir, 'node_modules', name, '..'), { recursive: true })
    symlinkSync(folder, join(dir, 'node_modules', name))
  }
  return dir
}

/** A value of `schema`'s type, with only the required properties of an object: what a call must send. */
function least (node: unknown): unknown {
  const schema = apiDocument.dereference(node as JsonObject) as JsonObject
  if (schema.const !== undefined) return schema.const
  if (Array.isArray(schema.enum)) return schema.enum[0]
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined
  if (branches !== undefined) return least(branches[0])
  if (Array.isArray(schema.allOf) && schema.type === undefined) return least(schema.allOf[0])
  switch ([schema.type].flat()[0]) {
    case 'integer': case 'number': return 1
    case 'boolean': return true
    case 'array': return [least(schema.items)]
    case 'object': {
      const properties = (schema.properties ?? {}) as JsonObject
      return Object.fromEntries(((schema.required ?? []) as string[]).map((name) => [name, least(properties[name])]))
    }
    default: return schema.format === 'date-time' ? '2026-01-01T00:00:00Z' : 'x'
  }
}

/** `client.POST('/store/orders', { body: { petId: 1 } })`, for each operation of the document. */
function everyCall (): string {
  return [...apiDocument.operations.values()].map((op) => {
    const init: string[] = []
    const path = apiDocument.parameters(op.operationId).filter((parameter) => parameter.in === 'path')
    if (path.length > 0) init.push(`params: { path: ${JSON.stringify(Object.fromEntries(path.map((parameter) => [parameter.name, least(parameter.schema)])))} }`)
    const body = apiDocument.dereference(op.operation.requestBody ?? null) as JsonObject | null
    const content = body?.content as Record<string, { schema: unknown }> | undefined
    if (content !== undefined) init.push(`body: ${JSON.stringify(least(Object.values(content)[0]!.schema))}`)
    return `  await client.${op.method.toUpperCase()}(${JSON.stringify(op.path)}, { ${init.join(', ')} })`
  }).join('\n')
}

t.test('openapi-typescript and openapi-fetch, at their defaults: every operation called with its required fields, the webhooks typed', async (t) => {
  const dir = await consumerWithDocument(t, { 'openapi-fetch': join(root, 'node_modules/openapi-fetch') })
  await run(bin('openapi-typescript'), ['openapi.json', '--output', 'schema.ts'], { cwd: dir, env: CONSUMER_ENV })
  writeFileSync(join(dir, 'calls.ts'), `import createClient from 'openapi-fetch'
import type { paths, webhooks } from './schema'

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000/v1' })

export async function everyOperation (): Promise<void> {
${everyCall()}
}

type Post<T extends keyof webhooks> = NonNullable<webhooks[T]['post']>
type Body<T extends keyof webhooks> = Post<T>['requestBody']['content']['application/json']

// What changed, typed field by field (each also null: absent before the change), never \`never\`.
export function petUpdated (event: Body<'pet.updated'>, headers: Post<'pet.updated'>['parameters']['header']) {
  const status: 'available' | 'pending' | 'sold' | null | undefined = event.previous.status
  const sold: NonNullable<typeof event.previous.status> = 'sold'
  const name: string | null | undefined = event.previous.name
  const renamed: NonNullable<typeof event.previous.name> = 'Rex'
  const signed: [string, string, string, string | undefined] = [headers['webhook-id'], headers['webhook-timestamp'], headers['webhook-signature'], headers.traceparent]
  return { status, sold, name, renamed, signed }
}

export function orderUpdated (event: Body<'order.updated'>) {
  const complete: boolean | null | undefined = event.previous.complete
  const shipped: NonNullable<typeof event.previous.complete> = true
  return { complete, shipped }
}
`)
  t.equal(await typeCheck(dir, 'calls.ts', BUNDLER_PROJECT), '', 'every call type-checks (tsc prints nothing)')
})

t.test('openapi-zod-client, at its defaults: the schemas and client compile, strict', async (t) => {
  const nested = join(root, 'node_modules/openapi-zod-client/node_modules')
  const dir = await consumerWithDocument(t, { '@zodios/core': join(nested, '@zodios/core'), zod: join(nested, 'zod') })
  await run(bin('openapi-zod-client'), ['openapi.json', '-o', 'client.ts'], { cwd: dir, env: CONSUMER_ENV })
  t.equal(await typeCheck(dir, 'client.ts', BUNDLER_PROJECT), '', 'the client type-checks (tsc prints nothing)')
})
