import t from 'tap'
import { build, JSON_HEADERS, AUTH } from '../../helpers/app.ts'
import { errorBody, JSON_TYPE } from '../../helpers/answers.ts'
import { codeBlock } from '../../helpers/markdown.ts'

t.test('createPet answers 201 with the pet and its assigned id', async (t) => {
  const app = await build(t)
  const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 3, status: 'sold' } })
  t.equal(res.statusCode, 201)
  t.equal(res.headers['content-type'], JSON_TYPE)
  t.equal(res.body, '{"id":1,"name":"Rex","categoryId":3,"status":"sold"}')
  const second = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Tom', categoryId: 3 } })
  t.equal(second.body, '{"id":2,"name":"Tom","categoryId":3}', 'no status key when none was given, and no default')
})

t.test('createPet keeps int64 categoryIds digit for digit', async (t) => {
  const app = await build(t)
  for (const digits of ['9007199254740991', '9007199254740993', '9223372036854775807']) {
    const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: `{"name":"Big","categoryId":${digits}}` })
    t.equal(res.statusCode, 201, digits)
    t.match(res.body, new RegExp(`"categoryId":${digits}}$`), `${digits} is returned exactly`)
    const id = JSON.parse(res.body).id
    const listed = await app.inject({ url: `/v1/pets/${id}`, headers: AUTH })
    t.match(listed.body, new RegExp(`"categoryId":${digits}}$`), `${digits} is stored exactly`)
  }
})

const NAME_RULE = 'must contain a visible character and no control characters, unpaired surrogates, bidirectional controls or invisible format characters'

t.test('createPet refuses invalid bodies with 400 and creates nothing', async (t) => {
  const app = await build(t)
  const cases: Array<[string, string, string, string]> = [
    ['missing name', '{"categoryId":1}', 'invalid_request', "body must have required property 'name'"],
    ['missing categoryId', '{"name":"Rex"}', 'invalid_request', "body must have required property 'categoryId'"],
    ['unknown field', '{"name":"Rex","categoryId":1,"categoryID":2}', 'invalid_request', "body must NOT have additional property 'categoryID'"],
    ['a typo of a required field: the typo is named', '{"name":"Rex","categoryID":1}', 'invalid_request', "body must NOT have additional property 'categoryID'"],
    ['a typo of the first required field', '{"nmae":"Rex","categoryId":1}', 'invalid_request', "body must NOT have additional property 'nmae'"],
    ['client id', '{"id":7,"name":"Rex","categoryId":1}', 'invalid_request', "body must NOT have additional property 'id'"],
    ['__proto__', '{"name":"Rex","categoryId":1,"__proto__":{"admin":true}}', 'invalid_request', "body must NOT have additional property '__proto__'"],
    ['string categoryId is not coerced', '{"name":"Rex","categoryId":"5"}', 'invalid_request', 'body/categoryId must be integer'],
    ['float categoryId', '{"name":"Rex","categoryId":1.5}', 'invalid_request', 'body/categoryId must be integer'],
    ['zero categoryId', '{"name":"Rex","categoryId":0}', 'invalid_request', 'body/categoryId must be >= 1'],
    ['negative categoryId', '{"name":"Rex","categoryId":-4}', 'invalid_request', 'body/categoryId must be >= 1'],
    ['categoryId 2^63', '{"name":"Rex","categoryId":9223372036854775808}', 'invalid_request', 'body/categoryId must be <= 9223372036854775807'],
    ['categoryId that a double would round', '{"name":"Rex","categoryId":9007199254740993.0}', 'invalid_request', 'body/categoryId must be integer'],
    ['categoryId 1e400', '{"name":"Rex","categoryId":1e400}', 'invalid_request', 'body/categoryId must be integer'],
    ['empty name', '{"name":"","categoryId":1}', 'invalid_request', 'body/name must NOT have fewer than 1 characters'],
    ['blank name', '{"name":"   ","categoryId":1}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['NUL in name', '{"name":"Re\\u0000x","categoryId":1}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['tab in name', '{"name":"Re\\tx","categoryId":1}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['lone surrogate in name', '{"name":"Re\\ud800x","categoryId":1}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['only zero width spaces', '{"name":"\\u200b\\u200b","categoryId":1}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['only soft hyphens', '{"name":"\\u00ad","categoryId":1}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['a zero width space inside', '{"name":"Re\\u200bx","categoryId":1}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['a bidi override', '{"name":"Rex\\u202egnp.exe","categoryId":1}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['a bidi isolate', '{"name":"Re\\u2066x","categoryId":1}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['a zero width joiner between letters', '{"name":"Re\\u200dx","categoryId":1}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['only combining marks', '{"name":"\\u0301\\u0301","categoryId":1}', 'invalid_request', `body/name ${NAME_RULE}`],
    ['nested deeper than the parser goes', `{"name":"Rex","categoryId":1,"x":${'['.repeat(8000)}${']'.repeat(8000)}}`, 'invalid_json', 'Body is not valid JSON: it is nested too deeply'],
    ['long name', JSON.stringify({ name: 'x'.repeat(201), categoryId: 1 }), 'invalid_request', 'body/name must NOT have more than 200 characters'],
    ['numeric name', '{"name":5,"categoryId":1}', 'invalid_request', 'body/name must be string'],
    ['unknown status', '{"name":"Rex","categoryId":1,"status":"lost"}', 'invalid_request', 'body/status must be one of: available, pending, sold'],
    ['null status', '{"name":"Rex","categoryId":1,"status":null}', 'invalid_request', 'body/status must be string'],
    ['array body', '[{"name":"Rex","categoryId":1}]', 'invalid_request', 'body must be object'],
    ['not JSON', '{"name":"Rex",', 'invalid_json', 'Body is not valid JSON: Quoted object key expected but reached end of input at position 14'],
    ['duplicate keys', '{"name":"Rex","name":"Tom","categoryId":1}', 'invalid_json', 'Body is not valid JSON: Duplicate key \'name\' encountered at position 15'],
    ['empty body', '', 'invalid_request', 'body is required, as application/json']
  ]
  for (const [what, payload, code, message] of cases) {
    const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload })
    t.equal(res.statusCode, 400, what)
    t.equal(res.headers['content-type'], JSON_TYPE, what)
    t.same(res.json(), errorBody(code, message, 400), what)
  }
  const list = await app.inject({ url: '/v1/pets', headers: AUTH })
  t.equal(list.body, '[]', 'nothing was created')
})

t.test('createPet accepts a 200-character name', async (t) => {
  const app = await build(t)
  // 200 characters, counted as code points: emoji outside the BMP, RTL text, combining marks.
  const name = '🐶'.repeat(100) + 'שלום'.repeat(20) + 'e\u0301'.repeat(10)
  const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name, categoryId: 1 } })
  t.equal(res.statusCode, 201)
  t.equal(res.json().name, name)
})

t.test('createPet keeps emoji sequences: skin tones, joiners and variation selectors', async (t) => {
  const app = await build(t)
  for (const name of ['👩🏽‍💻 Ada', '👨‍👩‍👧', '🏳️‍🌈', '❤️ Rex', 'Café', 'Cafe\u0301', '日本の犬', 'שלום']) {
    const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name, categoryId: 1 } })
    t.equal(res.statusCode, 201, name)
    t.equal(res.json().name, name, `${name} comes back as sent`)
  }
})

t.test('bodies are UTF-8: another charset or bytes that are not UTF-8 are refused, never stored mangled', async (t) => {
  const app = await build(t)
  const cases: Array<[string, string, Buffer, string, string]> = [
    ['latin1 charset', 'application/json; charset=latin1', Buffer.from('{"name":"Caf\u00e9","categoryId":1}', 'latin1'), 'unsupported_media_type', 'Content-Type charset must be utf-8, not latin1'],
    ['quoted charset', 'application/json; charset="ISO-8859-1"', Buffer.from('{"name":"Rex","categoryId":1}'), 'unsupported_media_type', 'Content-Type charset must be utf-8, not ISO-8859-1'],
    ['utf-16 charset', 'application/json;charset=utf-16', Buffer.from('{"name":"Rex","categoryId":1}', 'utf16le'), 'unsupported_media_type', 'Content-Type charset must be utf-8, not utf-16'],
    ['latin1 bytes, no charset', 'application/json', Buffer.from('{"name":"Caf\u00e9","categoryId":1}', 'latin1'), 'invalid_json', 'Body is not valid UTF-8'],
    ['a lone continuation byte', 'application/json', Buffer.concat([Buffer.from('{"name":"Re'), Buffer.from([0x80]), Buffer.from('x","categoryId":1}')]), 'invalid_json', 'Body is not valid UTF-8'],
    ['an overlong encoding', 'application/json', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc0, 0xaf]), Buffer.from('","categoryId":1}')]), 'invalid_json', 'Body is not valid UTF-8'],
    ['an encoded surrogate', 'application/json', Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xed, 0xa0, 0x80]), Buffer.from('","categoryId":1}')]), 'invalid_json', 'Body is not valid UTF-8']
  ]
  for (const [what, contentType, payload, code, message] of cases) {
    const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: { ...AUTH, 'content-type': contentType }, payload })
    t.equal(res.statusCode, 400, what)
    t.same(res.json(), errorBody(code, message, 400), what)
  }
  t.equal((await app.inject({ url: '/v1/pets', headers: AUTH })).body, '[]', 'nothing was created')
  for (const charset of ['utf-8', 'UTF-8', 'utf8', '"utf-8"']) {
    const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: { ...AUTH, 'content-type': `application/json; charset=${charset}` }, payload: Buffer.from('{"name":"Café","categoryId":1}') })
    t.equal(res.statusCode, 201, charset)
    t.equal(res.json().name, 'Café')
  }
})

t.test('createPet needs a JSON content type', async (t) => {
  const app = await build(t)
  const textPlain = await app.inject({ method: 'POST', url: '/v1/pets', headers: { ...AUTH, 'content-type': 'text/plain' }, payload: '{"name":"Rex","categoryId":1}' })
  t.equal(textPlain.statusCode, 400)
  t.same(textPlain.json(), errorBody('unsupported_media_type', 'Content-Type must be application/json', 400))
  const none = await app.inject({ method: 'POST', url: '/v1/pets', headers: AUTH, payload: Buffer.from('{"name":"Rex","categoryId":1}') })
  t.equal(none.statusCode, 400)
  t.same(none.json(), errorBody('unsupported_media_type', 'Content-Type must be application/json', 400))
  const noBody = await app.inject({ method: 'POST', url: '/v1/pets', headers: AUTH })
  t.equal(noBody.statusCode, 400)
  t.same(noBody.json(), errorBody('invalid_request', 'body is required, as application/json', 400))
  const charset = await app.inject({ method: 'POST', url: '/v1/pets', headers: { ...AUTH, 'content-type': 'application/json; charset=utf-8' }, payload: '{"name":"Rex","categoryId":1}' })
  t.equal(charset.statusCode, 201, 'a charset parameter is fine')
})

t.test('createPet refuses a body over the limit with 413', async (t) => {
  const app = await build(t)
  const payload = JSON.stringify({ name: 'Rex', categoryId: 1, padding: 'x'.repeat(16 * 1024) })
  const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload })
  t.equal(res.statusCode, 413)
  t.equal(res.headers['content-type'], JSON_TYPE)
  t.same(res.json(), errorBody('payload_too_large', 'Request body is too large', 413))
})

t.test('100 concurrent creates get 100 distinct, increasing ids', async (t) => {
  const app = await build(t)
  const responses = await Promise.all(Array.from({ length: 100 }, (_, i) =>
    app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: `pet ${i}`, categoryId: 1 } })))
  t.ok(responses.every((res) => res.statusCode === 201))
  const ids = responses.map((res) => res.json().id as number)
  t.equal(new Set(ids).size, 100)
  t.same([...ids].sort((a, b) => a - b), Array.from({ length: 100 }, (_, i) => i + 1))
})

t.test('a typo of a required field is answered as docs/api/requests.md shows', async (t) => {
  const app = await build(t)
  const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: '{"name":"Rex","categoryID":1}' })
  t.equal(res.statusCode, 400)
  t.equal(`${res.body}\n`, codeBlock('docs/api/requests.md', 'json', 'categoryID').code)
})
