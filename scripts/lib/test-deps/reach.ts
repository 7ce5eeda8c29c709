/**
 * What an edit of the document or of the migrations can reach, finer than "every test that
 * reads it": each test of the app reads the document and applies every migration, yet an
 * edit of one schema changes only the operations that use it, and a migration only the
 * code that queries its tables. A reach is a set of places in the code; a test is reached
 * when one of its processes ran one of them (./select.ts). Whatever makes every test fail
 * (a document the service refuses, a migration that throws) fails the reached ones too.
 */
import { isDeepStrictEqual } from 'node:util'
import { parse } from 'yaml'

/** Lines of code: those matching `line` in the files matching `file`; `body` when the line names a function and its first statement is what must have run. */
export interface Place {
  file: RegExp
  line: RegExp
  body: boolean
  /** What running it means, for the reason printed: `it calls createPet`. */
  what: string
}

type Node = unknown
type Document = Record<string, Node>

const HANDLERS = /^src\/features\/[^/]+\/handlers\.ts$/
const METHODS = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])
/** Parts of the document only served, never acted on: reached by the routes serving it. */
const SERVED = new Set(['info', 'tags', 'externalDocs'])
const SERVED_BY: Place = { file: /^src\/features\/docs\/plugin\.ts$/, line: /async function \w+ \(_?request/, body: true, what: 'it fetches the document' }
/** Parts reached by their operations, or through them. */
const BY_OPERATION = new Set(['paths', 'components', 'webhooks'])

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Every `$ref` under `node`, as `kind/name` of the component it names. */
function refs (node: Node, into = new Set<string>()): Set<string> {
  if (Array.isArray(node)) for (const item of node) refs(item, into)
  else if (node !== null && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') {
        const match = /^#\/components\/([^/]+)\/([^/]+)$/.exec(value)
        if (match !== null) into.add(`${match[1]}/${match[2]}`)
      } else refs(value, into)
    }
  }
  return into
}

const component = (doc: Document, name: string): Node => {
  const [kind, key] = name.split('/') as [string, string]
  return (doc.components as Record<string, Record<string, Node>> | undefined)?.[kind]?.[key]
}

/** The operations of a document, by operationId, each with its path item's own parameters. */
function operations (doc: Document): Map<string, Node> {
  const found = new Map<string, Node>()
  for (const item of Object.values((doc.paths ?? {}) as Record<string, Record<string, Node>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const id = (operation as { operationId?: string } | null)?.operationId
      if (METHODS.has(method) && typeof id === 'string') found.set(id, { parameters: item.parameters, operation })
    }
  }
  return found
}

/** The components `names` refer to, through any chain of `$ref`s, in either document. */
function closure (names: Set<string>, docs: Document[]): Set<string> {
  const seen = new Set<string>()
  const queue = [...names]
  while (queue.length > 0) {
    const name = queue.pop()!
    if (seen.has(name)) continue
    seen.add(name)
    for (const doc of docs) queue.push(...refs(component(doc, name)))
  }
  return seen
}

/**
 * The places an edit of the document reaches, from its text then and now; undefined when it
 * changed a part whose reach is everything (its servers, its security, an extension).
 */
export function documentReach (then: string, now: string): Place[] | undefined {
  let docs: Document[]
  try {
    docs = [parse(then) as Document, parse(now) as Document]
  } catch {
    return undefined
  }
  const [before, after] = docs as [Document, Document]
  const parts = new Set([...Object.keys(before), ...Object.keys(after)])
  const changed = [...parts].filter((part) => !isDeepStrictEqual(before[part], after[part]))
  if (changed.some((part) => !SERVED.has(part) && !BY_OPERATION.has(part))) return undefined

  const places: Place[] = changed.some((part) => SERVED.has(part)) ? [SERVED_BY] : []
  const changedComponents = new Set<string>()
  for (const doc of docs) {
    for (const [kind, entries] of Object.entries((doc.components ?? {}) as Record<string, Record<string, Node>>)) {
      for (const name of Object.keys(entries)) {
        if (!isDeepStrictEqual(component(before, `${kind}/${name}`), component(after, `${kind}/${name}`))) changedComponents.add(`${kind}/${name}`)
      }
    }
  }
  const [opsBefore, opsAfter] = [operations(before), operations(after)]
  const reached = [...new Set([...opsBefore.keys(), ...opsAfter.keys()])].filter((id) => {
    if (!isDeepStrictEqual(opsBefore.get(id), opsAfter.get(id))) return true
    const uses = closure(new Set([...refs(opsBefore.get(id)), ...refs(opsAfter.get(id))]), docs)
    return [...uses].some((name) => changedComponents.has(name))
  })
  // A webhook's schemas are checked at start, which every test of the app does, and read by
  // the tests that check deliveries against them, which name the document themselves.
  if (reached.length > 0) {
    places.push({ file: HANDLERS, line: new RegExp(`^\\s+async (${reached.map(escape).join('|')}) \\(`), body: true, what: `it calls ${reached.join(', ')}` })
  }
  return places
}

/** The tables a migration creates, alters, drops or indexes; undefined when it names them only as it runs. */
export function migrationTables (text: string): string[] | undefined {
  if (text.includes('sql.table(') || text.includes('sql.raw(')) return undefined
  const tables = new Set<string>()
  for (const match of text.matchAll(/\b(?:createTable|alterTable|dropTable|renameTable|on)\(\s*'(\w+)'/g)) tables.add(match[1]!)
  for (const [, statement] of text.matchAll(/\bsql`([^`]*)`/g)) {
    for (const match of statement!.matchAll(/\b(?:table|on|into|update|from)\s+(?:if\s+(?:not\s+)?exists\s+)?"?(\w+)/gi)) tables.add(match[1]!)
  }
  return tables.size > 0 ? [...tables] : undefined
}

/** The code that queries `tables`: a query naming one, built with Kysely or written as SQL. */
export function queriesOf (tables: readonly string[], what: string): Place {
  const names = tables.map(escape).join('|')
  return {
    file: /^src\/.*\.ts$/,
    line: new RegExp(`\\b(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|from|into|update|join)\\W{0,3}(?:${names})\\b`, 'i'),
    body: false,
    what
  }
}

/** The migrations a generated list imports, by file (`migrations/…`). */
export function listedMigrations (text: string): string[] {
  return [...text.matchAll(/from '\.\.\/(migrations\/[^']+)'/g)].map((match) => match[1]!)
}

/** The files whose reach is narrower; of these, only the document is read rather than loaded, so its text is kept (./record.ts). */
const NARROWED = /^(spec\/openapi\.yaml|(client\/src\/)?generated\/(openapi|migrations|database)\.ts|migrations\/[^/]+\.ts)$/
export const KEPT_READS = ['spec/openapi.yaml']
/** Types made from the document and from the migrations: they change only as their source does. */
const MADE_FROM: Record<string, string> = {
  'generated/openapi.ts': 'spec/openapi.yaml',
  'client/src/generated/openapi.ts': 'spec/openapi.yaml',
  'generated/database.ts': 'generated/migrations.ts'
}

/**
 * The places an edit of `path` reaches when narrower than every test loading or reading it:
 * the document's, a migration's, the generated list of migrations' (what it adds), and the
 * types made from them. `thenOf` gives a file's text when the test last ran (undefined where
 * not kept or not there), `textOf` its text now (undefined when gone).
 */
export function narrowerReach (path: string, thenOf: (path: string) => string | undefined, textOf: (path: string) => string | undefined): Place[] | undefined {
  if (!NARROWED.test(path)) return undefined
  const source = MADE_FROM[path]
  if (source !== undefined) {
    // Types that changed while their source did not (a new generator): every reader.
    const [then, now] = [thenOf(source), textOf(source)]
    return then === undefined || now === undefined || then === now ? undefined : narrowerReach(source, thenOf, textOf)
  }
  const [then, now] = [thenOf(path), textOf(path)]
  if (now === undefined) return undefined
  if (path === 'spec/openapi.yaml') return then === undefined ? undefined : documentReach(then, now)
  const tablesOf = (files: readonly string[]) => {
    const tables = files.map((file) => { const text = textOf(file); return text === undefined ? undefined : migrationTables(text) })
    return tables.some((found) => found === undefined) ? undefined : [...new Set(tables.flat() as string[])]
  }
  let tables: string[] | undefined
  if (path.startsWith('migrations/')) tables = tablesOf([path])
  else if (then !== undefined) {
    const [before, after] = [listedMigrations(then), listedMigrations(now)]
    const added = after.filter((file) => !before.includes(file))
    // A list that lost or reordered migrations changes every database the tests make.
    if (added.length === 0 || before.some((file, i) => after[i] !== file)) return undefined
    tables = tablesOf(added)
  }
  return tables === undefined ? undefined : [queriesOf(tables, `it queries ${tables.join(', ')}`)]
}
