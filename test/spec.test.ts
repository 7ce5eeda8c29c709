import t from 'tap'
import { apiDocument } from '../src/openapi/document.ts'
import { routeSchema } from '../src/openapi/route-schema.ts'

t.test('every operation of the document has its route schemas, free of OpenAPI-only keywords', async (t) => {
  t.same([...apiDocument.operations.keys()], ['listPets', 'createPet', 'getPet', 'listOrders', 'placeOrder', 'cancelOrder'])
  const text = JSON.stringify([...apiDocument.operations.keys()].map((id) => routeSchema(apiDocument, id)), (_key, value) => typeof value === 'bigint' ? String(value) : value)
  t.notMatch(text, /"\$ref"|"example"|"x-/)
  t.same(Object.keys(routeSchema(apiDocument, 'createPet').body as object), ['type', 'description', 'required', 'additionalProperties', 'properties'])
  t.same(Object.keys(routeSchema(apiDocument, 'listPets').querystring as { properties: object }), ['type', 'properties', 'required', 'additionalProperties'])
  t.same(Object.keys((routeSchema(apiDocument, 'listPets').querystring as { properties: object }).properties), ['limit', 'status', 'cursor'])
})
