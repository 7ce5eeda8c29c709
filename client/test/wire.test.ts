/**
 * The client's reading of the wire, unit by unit: Link headers (RFC 8288) and JSON with
 * exact int64 values.
 */
import t from 'tap'
import { assertExact, parseJson, stringifyJson } from '../src/json.ts'
import { linkedPage, nextQuery } from '../src/paging.ts'

t.test('nextQuery takes the query of the rel="next" target, whatever else the header holds', async (t) => {
  const cases: Array<[string | null, Record<string, string> | undefined]> = [
    [null, undefined],
    ['</v1/pets?limit=20&status=sold&cursor=MTIz>; rel="next"', { limit: '20', status: 'sold', cursor: 'MTIz' }],
    ['</v1/pets>; rel="successor-version", </v1/pets?cursor=a,b>; rel=next', { cursor: 'a,b' }],
    ['<https://petstore.example.com/v1/pets?cursor=x>; title="more"; REL="prev Next"', { cursor: 'x' }],
    ['</v1/pets?cursor=x>; rel="prev"', undefined],
    ['</v1/pets?cursor=x>', undefined],
    ['not a link; rel="next"', undefined]
  ]
  for (const [link, query] of cases) t.strictSame(nextQuery(link), query, String(link))
})

t.test('linkedPage: the next cursor and whether more follow', async (t) => {
  t.strictSame(linkedPage([1], '</v1/pets?limit=1&cursor=MQ>; rel="next"'),
    { page: { items: [1], nextCursor: 'MQ', hasMore: true }, next: { limit: '1', cursor: 'MQ' } })
  t.strictSame(linkedPage([1], null), { page: { items: [1], nextCursor: undefined, hasMore: false }, next: undefined })
})

t.test('parseJson keeps integers beyond 2^53 exact, as bigints, and every other number a number', async (t) => {
  const parsed = parseJson('{"big":9223372036854775807,"edge":9007199254740992,"safe":9007199254740991,"small":-3,"real":1.5,"list":[1,18446744073709551616]}')
  t.strictSame(parsed, { big: 9223372036854775807n, edge: 9007199254740992n, safe: 9007199254740991, small: -3, real: 1.5, list: [1, 18446744073709551616n] })
})

t.test('stringifyJson writes bigints digit for digit, and refuses a number that already lost digits', async (t) => {
  t.equal(stringifyJson({ name: 'Max', categoryId: 9223372036854775807n, ids: [1n, 2] }), '{"name":"Max","categoryId":9223372036854775807,"ids":[1,2]}')
  t.throws(() => stringifyJson({ a: [{ b: 2 ** 53 }] }), new RangeError('body.a.0.b is 9007199254740992, beyond 2^53 and so already rounded: pass it as a bigint'))
  t.doesNotThrow(() => assertExact({ a: 1.5, b: null, c: 'x', d: Number.MAX_SAFE_INTEGER }))
})
