import t from 'tap'
import { toApiInt } from '../../src/http/int64.ts'

t.test('toApiInt gives a number when exact and a BigInt beyond 2^53', async (t) => {
  t.equal(toApiInt(7), 7)
  t.equal(toApiInt(7n), 7)
  t.equal(toApiInt('7'), 7)
  t.equal(toApiInt(9007199254740991n), 9007199254740991)
  t.equal(toApiInt(-9007199254740991n), -9007199254740991)
  t.equal(toApiInt(9007199254740992n), 9007199254740992n)
  t.equal(toApiInt('9007199254740993'), 9007199254740993n)
  t.equal(toApiInt('9223372036854775807'), 9223372036854775807n)
  t.equal(toApiInt(-9223372036854775808n), -9223372036854775808n)
})
