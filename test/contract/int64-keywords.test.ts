/**
 * The `int64` keyword (src/contract/int64-keywords.ts): exact bounds, numbers where they
 * fit and BigInts past 2^53, digits read where coercion is on; and the same answers from a
 * validator written out whole as code (Ajv's standalone code, as the build writes it).
 */
import { Ajv, type ValidateFunction } from 'ajv'
import standaloneCode from 'ajv/dist/standalone/index.js'
import t from 'tap'
import { addInt64Keyword, useInt64Keyword } from '../../src/contract/int64-keywords.ts'
import { runModuleCode } from '../helpers/module-code.ts'

const ID = { type: 'object', properties: { id: { type: 'integer', format: 'int64', minimum: 1, maximum: 9223372036854775807n } } }

function validators (schema: object, coerce: boolean): ValidateFunction[] {
  const ajv = new Ajv({ coerceTypes: coerce, strict: true, validateSchema: false, code: { source: true } })
  addInt64Keyword(ajv, { coerceStrings: coerce })
  const compiled = ajv.compile(useInt64Keyword(schema))
  return [compiled, runModuleCode<ValidateFunction>(standaloneCode.default(ajv, compiled))]
}

/** What a validator makes of `{ id }`: the value it leaves, or its message. */
function judged (validate: ValidateFunction, id: unknown): unknown {
  const data = { id }
  return validate(data) ? data.id : validate.errors![0]!.message
}

for (const coerce of [false, true]) {
  t.test(`with coercion ${coerce ? 'on' : 'off'}, compiled and written as code alike`, async (t) => {
    const cases: Array<[unknown, unknown]> = [
      [5, 5], [0, 'must be >= 1'], [1.5, 'must be integer'], ['x', 'must be integer'],
      [9007199254740993n, 9007199254740993n], [9223372036854775807n, 9223372036854775807n],
      [9223372036854775808n, 'must be <= 9223372036854775807'],
      ['42', coerce ? 42 : 'must be integer'], ['9223372036854775807', coerce ? 9223372036854775807n : 'must be integer']
    ]
    for (const validate of validators(ID, coerce)) {
      t.strictSame(cases.map(([id]) => judged(validate, id)), cases.map(([, expected]) => expected))
    }
  })
}

t.test('a bound past int64, however it is written, is the int64 maximum', async (t) => {
  for (const maximum of [1e21, 2n ** 64n]) {
    const [validate] = validators({ type: 'object', properties: { id: { type: 'integer', format: 'int64', maximum } } }, false)
    t.equal(judged(validate!, 9223372036854775807n), 9223372036854775807n, String(maximum))
    t.equal(judged(validate!, 9223372036854775808n), 'must be <= 9223372036854775807', String(maximum))
  }
  t.strictSame(useInt64Keyword({ type: 'integer', format: 'int64', minimum: -5, maximum: 1e21 }), { int64: { minimum: '-5', maximum: '1000000000000000000000' } })
})
