import { Ajv } from 'ajv'
import addFormats from 'ajv-formats'
import t from 'tap'
import { apiDocument } from '../../src/contract/document.ts'
import { routeSchema } from '../../src/contract/route-schema.ts'

t.test('every operation of the document has its route schemas, free of OpenAPI-only keywords', async (t) => {
  t.ok(apiDocument.operations.size > 0)
  const text = JSON.stringify([...apiDocument.operations.keys()].map((id) => routeSchema(apiDocument, id)), (_key, value) => typeof value === 'bigint' ? String(value) : value)
  t.notMatch(text, /"\$ref"|"example"|"x-/)
  t.same(Object.keys(routeSchema(apiDocument, 'createPet').body as object), ['type', 'description', 'required', 'additionalProperties', 'properties'])
  t.same(Object.keys(routeSchema(apiDocument, 'listPets').querystring as { properties: object }), ['type', 'properties', 'required', 'additionalProperties'])
  // The query parameters the document declares, in its order: read from it, so one added there needs no edit here.
  const declared = apiDocument.parameters('listPets').filter((parameter) => parameter.in === 'query').map((parameter) => parameter.name)
  t.ok(declared.includes('limit'), 'listPets declares its paging limit')
  t.same(Object.keys((routeSchema(apiDocument, 'listPets').querystring as { properties: object }).properties), declared)
})

t.test('every example in the document is valid for its schema, patterns read as Unicode', async (t) => {
  const ajv = new Ajv({ strict: false, allErrors: true })
  addFormats.default(ajv)
  const examples: Array<[string, unknown, object]> = []
  // Media examples (next to a schema) and schema examples (inside one).
  const visit = (node: unknown, path: string) => {
    if (node === null || typeof node !== 'object') return
    const object = node as Record<string, unknown>
    if ('example' in object && object.schema !== undefined) examples.push([path, object.example, object.schema as object])
    if ('example' in object && object.type !== undefined) examples.push([path, object.example, object])
    for (const [key, value] of Object.entries(object)) visit(value, `${path}/${key}`)
  }
  visit(apiDocument.dereference(apiDocument.document as never), '#')
  t.ok(examples.length >= 10, `${examples.length} examples`)
  for (const [path, example, schema] of examples) {
    const { example: _, ...bare } = schema as Record<string, unknown>
    const plain = JSON.parse(JSON.stringify(bare, (_key, value) => typeof value === 'bigint' ? Number(value) : value))
    const validate = ajv.compile(plain)
    t.ok(validate(example), `${path}: ${ajv.errorsText(validate.errors)}`)
  }
})

t.test('every string a request carries refuses NUL and unpaired surrogates, which no database stores as sent', async (t) => {
  const ajv = new Ajv({ strict: false })
  addFormats.default(ajv)
  const plain = (schema: unknown) => JSON.parse(JSON.stringify(schema, (_key, value) => typeof value === 'bigint' ? Number(value) : value))
  let strings = 0
  // Each schema of a string in the parameters and bodies as the service validates them (the `Text` rule, or narrower).
  const visit = (node: unknown, where: string) => {
    if (node === null || typeof node !== 'object') return
    const schema = node as Record<string, unknown>
    if ([schema.type].flat().includes('string')) {
      strings++
      const validate = ajv.compile(plain(schema))
      for (const text of ['a\u0000b', 'a\ud800b', '\udc00']) t.notOk(validate(text), `${where} refuses ${JSON.stringify(text)}`)
    }
    for (const [key, value] of Object.entries(schema)) visit(value, `${where}/${key}`)
  }
  for (const operationId of apiDocument.operations.keys()) {
    const { body, querystring, params, headers } = routeSchema(apiDocument, operationId) as Record<string, unknown>
    for (const [part, schema] of Object.entries({ body, querystring, params, headers })) visit(schema, `${operationId} ${part}`)
  }
  t.ok(strings >= 10, `${strings} strings`)
})
