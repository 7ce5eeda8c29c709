import t from 'tap'
import { Ajv } from 'ajv'
import { integersAsDigits } from '../../src/contract/integer-text.ts'

// As the validation plugin compiles query strings, path parameters and headers.
const ajv = new Ajv({ coerceTypes: true, useDefaults: true, strict: true })
const schema = {
  type: 'object',
  properties: {
    offset: { type: 'integer', minimum: -10 },
    size: { type: 'integer', minimum: 1, maximum: 100 },
    name: { type: 'string' }
  },
  additionalProperties: false
}
const compiled = ajv.compile(schema)
const validate = integersAsDigits(schema, compiled)

t.test('digits, with a minus sign, become numbers the bounds then judge', async (t) => {
  const data: Record<string, unknown> = { offset: '-7', size: '007', name: '12' }
  t.equal(validate(data), true)
  t.same(data, { offset: -7, size: 7, name: '12' }, 'a string property stays text')
  t.equal(validate({ offset: '-11' }), false)
  t.match(validate.errors, [{ instancePath: '/offset', keyword: 'minimum', message: 'must be >= -10' }])
  t.equal(validate({ size: `9${'9'.repeat(400)}` }), false, 'past the largest double, still over the maximum')
  t.match(validate.errors, [{ instancePath: '/size', keyword: 'maximum', message: 'must be <= 100' }])
})

t.test('anything else Number() would take is refused as AJV words it', async (t) => {
  for (const text of ['Infinity', '-Infinity', '1e400', '1e1', '0x10', '+5', ' 5', '5 ', '', '5.0', '-', '٣']) {
    const data = { size: text }
    t.equal(validate(data), false, JSON.stringify(text))
    t.same(validate.errors, [{ instancePath: '/size', schemaPath: '#/properties/size/type', keyword: 'type', params: { type: 'integer' }, message: 'must be integer' }], JSON.stringify(text))
    t.same(data, { size: text }, 'the refused data is left as it came')
  }
})

t.test('the failure AJV meets first is the one reported', async (t) => {
  t.equal(validate({ size: '1e1', extra: '1' }), false)
  t.match(validate.errors, [{ keyword: 'additionalProperties', params: { additionalProperty: 'extra' } }])
  t.equal(validate({ offset: '-20', size: '1e1' }), false)
  t.match(validate.errors, [{ instancePath: '/offset', keyword: 'minimum' }])
})

t.test('values that are not text are left to AJV', async (t) => {
  t.equal(validate({ size: ['5', '6'] }), false)
  t.match(validate.errors, [{ instancePath: '/size', message: 'must be integer' }])
  t.equal(validate({ size: 5 }), true)
})

t.test('the wrapper still shows Fastify an AJV function; without integers there is none', async (t) => {
  t.ok(compiled.schemaEnv)
  t.equal(validate.schemaEnv, compiled.schemaEnv, 'so Fastify passes the parent, as to AJV')
  const plain = { type: 'object', properties: { name: { type: 'string' } } }
  const plainCompiled = ajv.compile(plain)
  t.equal(integersAsDigits(plain, plainCompiled), plainCompiled)
})
