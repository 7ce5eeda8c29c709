/**
 * A missing property reported as the unknown one beside it, when the object refuses unknown
 * ones and has one; AJV's own first failure everywhere else.
 */
import { Ajv } from 'ajv'
import t from 'tap'
import { unknownFirst } from '../../src/contract/unknown-first.ts'

const PET = { type: 'object', required: ['name', 'categoryId'], additionalProperties: false, properties: { name: { type: 'string' }, categoryId: { type: 'integer' } } }

function firstError (schema: object, data: unknown) {
  const validate = unknownFirst(schema, new Ajv({ strict: true }).compile(schema))
  return validate(data) ? undefined : validate.errors?.[0]
}

t.test('an unknown property comes before a missing one of the same object', async (t) => {
  t.match(firstError(PET, { name: 'Rex', categoryID: 1 }), {
    keyword: 'additionalProperties', instancePath: '', schemaPath: '#/additionalProperties', params: { additionalProperty: 'categoryID' }
  })
  t.match(firstError(PET, { constructor: 1, categoryId: 1 }), { keyword: 'additionalProperties', params: { additionalProperty: 'constructor' } },
    'a name Object.prototype has is unknown all the same')
  const nested = { type: 'object', required: ['pet'], properties: { pet: PET } }
  t.match(firstError(nested, { pet: { name: 'Rex', 'category/ID': 1 } }), {
    keyword: 'additionalProperties', instancePath: '/pet', schemaPath: '#/properties/pet/additionalProperties', params: { additionalProperty: 'category/ID' }
  })
})

t.test("AJV's failure stands otherwise", async (t) => {
  t.match(firstError(PET, { name: 'Rex' }), { keyword: 'required', params: { missingProperty: 'categoryId' } }, 'nothing unknown')
  t.match(firstError({ ...PET, additionalProperties: true }, { name: 'Rex', categoryID: 1 }), { keyword: 'required' }, 'unknown properties allowed')
  const either = { anyOf: [PET, { type: 'object', required: ['categoryID'], properties: { categoryID: { type: 'integer' } } }] }
  t.match(firstError(either, { name: 'Rex', x: 1 }), { keyword: 'required', schemaPath: '#/anyOf/0/required' }, 'another branch may know the field')
  t.match(firstError(PET, { name: 5, categoryId: 1 }), { keyword: 'type' }, 'not a required failure')
  t.equal(firstError(PET, { name: 'Rex', categoryId: 1 }), undefined, 'valid')
})
