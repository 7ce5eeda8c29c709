/**
 * Turns spec/openapi.yaml into generated/openapi.ts.
 *
 * The one change to openapi-typescript's defaults: an `int64` integer is typed
 * `number | bigint`, because the service keeps integers beyond 2^53 as BigInt
 * rather than rounding them (see src/http/json.ts).
 */
import { writeFile } from 'node:fs/promises'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'

const source = new URL('../spec/openapi.yaml', import.meta.url)
const target = new URL('../generated/openapi.ts', import.meta.url)

const INT64 = ts.factory.createUnionTypeNode([
  ts.factory.createKeywordTypeNode(ts.SyntaxKind.NumberKeyword),
  ts.factory.createKeywordTypeNode(ts.SyntaxKind.BigIntKeyword)
])

const ast = await openapiTS(source, {
  transform (schema) {
    if (schema.type === 'integer' && schema.format === 'int64') return INT64
    return undefined
  }
})

const header = '// Generated from spec/openapi.yaml by `npm run codegen`. Do not edit.\n\n'
await writeFile(target, header + astToString(ast))
console.log('generated/openapi.ts written')
