import t from 'tap'
import { operations, routeSchema } from '../src/spec.ts'

t.test('every operation of the document has its route schemas, free of OpenAPI-only keywords', async (t) => {
  t.same([...operations.keys()].sort(), ['createPet', 'getPet', 'listPets'])
  const text = JSON.stringify(['createPet', 'getPet', 'listPets'].map(routeSchema), (_key, value) => typeof value === 'bigint' ? String(value) : value)
  t.notMatch(text, /"\$ref"|"example"|"x-/)
  t.same(Object.keys(routeSchema('createPet').body as object), ['type', 'description', 'required', 'additionalProperties', 'properties'])
  t.same(Object.keys(routeSchema('listPets').querystring as { properties: object }), ['type', 'properties', 'required', 'additionalProperties'])
  t.same(Object.keys((routeSchema('listPets').querystring as { properties: object }).properties), ['limit', 'status', 'cursor'])
})
