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
