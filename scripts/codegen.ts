/**
 * Checks spec/openapi.yaml as the start does (src/contract/start-checks.ts), then writes
 * what is generated from the sources, each checked for drift in CI:
 * - spec/openapi.yaml into generated/openapi.ts (and `PathOperationId`, the operations the
 *   service serves, apart from the webhooks' in `operations`), and the same types into
 *   client/src/generated/openapi.ts: the client is a package of its own (petstore-client),
 *   whose published declarations may name no file outside it, with the client's table of
 *   operations (scripts/lib/client-operations.ts);
 * - the files of migrations/ into generated/migrations.ts, the list the service applies;
 * - the tables they make into generated/database.ts, the table types the repositories use
 *   (through src/database/schema.ts).
 *
 * The one change to openapi-typescript's defaults: an `int64` integer is typed
 * `number | bigint`, because the service keeps integers beyond 2^53 as BigInt
 * rather than rounding them (see src/http/json.ts).
 */
import { writeFile } from 'node:fs/promises'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'
import { CLIENT_OPERATIONS, clientOperations } from './lib/client-operations.ts'
import { databaseTypesSource } from './lib/database-types.ts'
import { migrationListSource } from './lib/migration-list.ts'

const source = new URL('../spec/openapi.yaml', import.meta.url)
const targets = ['generated/openapi.ts', 'client/src/generated/openapi.ts']

const INT64 = ts.factory.createUnionTypeNode([
  ts.factory.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword),
  ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword)
])

// The document the service would refuse to start with is refused here first, its
// problems named, before any file is written.
let operationsTable = ''
let pathOperationIds: string[] = []
try {
  // Imported here: reading the service's own document at import would throw outside this try.
  const { ApiDocument } = await import('../src/contract/document.ts')
  const { checkDocument } = await import('../src/contract/start-checks.ts')
  const { EMITTED_EVENTS } = await import('../src/features/events/types.ts')
  const document = ApiDocument.read(source, 'spec/openapi.yaml')
  checkDocument(document, EMITTED_EVENTS)
  operationsTable = clientOperations(document)
  pathOperationIds = [...document.operations.keys()]
} catch (error) {
  console.error(`npm run codegen: ${(error as Error).message}`)
  process.exit(1)
}

const ast = await openapiTS(source, {
  transform (schema) {
    if (schema.type === 'integer' && schema.format === 'int64') return INT64
    return undefined
  }
})

const header = '// Generated from spec/openapi.yaml by `npm run codegen`. Do not edit.\n\n'
// `operations` holds the webhooks' too (each declares the request the service sends).
const served = '\n/** The operations of `paths`, by operationId: those the service serves. */\n' +
  `export type PathOperationId = ${pathOperationIds.map((id) => JSON.stringify(id)).join(' | ')};\n`
for (const target of targets) {
  await writeFile(new URL(`../${target}`, import.meta.url), header + astToString(ast) + served)
  console.log(`${target} written`)
}
await writeFile(new URL(`../${CLIENT_OPERATIONS}`, import.meta.url), operationsTable)
console.log(`${CLIENT_OPERATIONS} written`)

const migrations = new URL('../migrations/', import.meta.url)
await writeFile(new URL('../generated/migrations.ts', import.meta.url), migrationListSource(migrations))
console.log('generated/migrations.ts written')
await writeFile(new URL('../generated/database.ts', import.meta.url), await databaseTypesSource(migrations))
console.log('generated/database.ts written')
