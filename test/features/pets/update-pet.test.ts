import t from 'tap'
import { sql } from 'kysely'
import { AUTH, build, JSON_HEADERS, TEST_DATABASE } from '../../helpers/app.ts'
import { errorBody, JSON_TYPE, petBody } from '../../helpers/answers.ts'
import { until } from '../../helpers/until.ts'

const PATCH_HEADERS = { ...AUTH, 'content-type': 'application/merge-patch+json' } as const
/** What every answer of updatePet carries, errors included. */
const STABILITY = { 'api-stability': 'experimental' }

type App = Awaited<ReturnType<typeof build>>

function patch (app: App, id: number | string, payload: string, headers: Record<string, string> = PATCH_HEADERS) {
  return app.inject({ method: 'PATCH', url: `/v1/pets/${id}`, headers, payload })
}

async function addPet (app: App, pet: object): Promise<void> {
  const res = await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: pet })
  if (res.statusCode !== 201) throw new Error(`createPet answered ${res.statusCode}: ${res.body}`)
}

/** getPet's answer: its body and its ETag. */
async function read (app: App, id: number | string) {
  const res = await app.inject({ url: `/v1/pets/${id}`, headers: AUTH })
  return { status: res.statusCode, body: res.body, etag: res.headers.etag }
}

t.test('updatePet applies a merge patch and answers the whole pet with the ETag getPet then serves', async (t) => {
  const app = await build(t)
  await addPet(app, { name: 'Rex', categoryId: 2, status: 'pending' })
  const cases: Array<[string, string, string]> = [
    ['a new status', '{"status":"sold"}', petBody({ id: 1, name: 'Rex', categoryId: 2, status: 'sold' })],
    ['a new name, the rest kept', '{"name":"Rexy"}', petBody({ id: 1, name: 'Rexy', categoryId: 2, status: 'sold' })],
    ['null removes the status', '{"status":null}', petBody({ id: 1, name: 'Rexy', categoryId: 2 })],
    ['a status again', '{"status":"available"}', petBody({ id: 1, name: 'Rexy', categoryId: 2, status: 'available' })],
    ['every field at once, an int64 beyond 2^53 exact', '{"name":"Big","categoryId":9223372036854775807,"status":"pending"}',
      '{"id":1,"name":"Big","categoryId":9223372036854775807,"status":"pending"}']
  ]
  for (const [what, payload, expected] of cases) {
    const res = await patch(app, 1, payload)
    t.equal(res.statusCode, 200, what)
    t.equal(res.headers['content-type'], JSON_TYPE, what)
    t.match(res.headers, { ...STABILITY, 'cache-control': 'no-store' }, what)
    t.equal(res.body, expected, what)
    const after = await read(app, 1)
    t.equal(after.body, expected, `${what}: getPet shows it`)
    t.equal(res.headers.etag, after.etag, `${what}: the ETag is the one getPet serves`)
  }
})

t.test('updatePet reads application/json as the same patch, and a UTF-8 charset', async (t) => {
  const app = await build(t)
  await addPet(app, { name: 'Rex', categoryId: 2 })
  const types = ['application/json', 'application/merge-patch+json; charset=utf-8', 'application/json; charset=UTF-8', 'Application/Merge-Patch+JSON']
  for (const [index, type] of types.entries()) {
    const name = `Rex ${index}`
    const res = await patch(app, 1, JSON.stringify({ name }), { ...AUTH, 'content-type': type })
    t.equal(res.statusCode, 200, type)
    t.equal(res.body, petBody({ id: 1, name, categoryId: 2 }), type)
  }
})

t.test('{} and a patch of the same values change nothing', async (t) => {
  const app = await build(t)
  await addPet(app, { name: 'Rex', categoryId: 2, status: 'sold' })
  const before = await read(app, 1)
  for (const payload of ['{}', '{"name":"Rex","categoryId":2,"status":"sold"}']) {
    const res = await patch(app, 1, payload)
    t.equal(res.statusCode, 200, payload)
    t.equal(res.body, before.body, payload)
    t.equal(res.headers.etag, before.etag, `${payload}: the ETag is unchanged`)
  }
  t.same(await read(app, 1), before)
})

const NAME_RULE = 'must contain a visible character and no control characters, unpaired surrogates, bidirectional controls or invisible format characters'

t.test('updatePet refuses an invalid patch with 400 and changes nothing', async (t) => {
  const app = await build(t)
  await addPet(app, { name: 'Rex', categoryId: 2, status: 'pending' })
  const before = await read(app, 1)
  const cases: Array<[string, string, string]> = [
    ['null name', '{"name":null}', 'body/name must be string'],
    ['null categoryId', '{"categoryId":null}', 'body/categoryId must be integer'],
    ['an id', '{"id":2}', "body must NOT have additional property 'id'"],
    ['an unknown field', '{"name":"Rex","colour":"red"}', "body must NOT have additional property 'colour'"],
    ['an unknown status', '{"status":"lost"}', 'body/status must be one of: available, pending, sold, null'],
    ['a status of another type', '{"status":5}', 'body/status must be string or null'],
    ['an empty name', '{"name":""}', 'body/name must NOT have fewer than 1 characters'],
    ['a name with a control character', '{"name":"Re\\u0000x"}', `body/name ${NAME_RULE}`],
    ['a categoryId as text', '{"categoryId":"5"}', 'body/categoryId must be integer'],
    ['a categoryId of 0', '{"categoryId":0}', 'body/categoryId must be >= 1'],
    ['a categoryId past int64', '{"categoryId":9223372036854775808}', 'body/categoryId must be <= 9223372036854775807'],
    ['an array', '[]', 'body must be object'],
    ['a string', '"sold"', 'body must be object'],
    ['null', 'null', 'body must be object'],
    ['a number', '5', 'body must be object']
  ]
  for (const [what, payload, message] of cases) {
    const res = await patch(app, 1, payload)
    t.equal(res.statusCode, 400, what)
    t.equal(res.headers['content-type'], JSON_TYPE, what)
    t.match(res.headers, { ...STABILITY, 'cache-control': 'no-store' }, what)
    t.same(res.json(), errorBody('invalid_request', message, 400), what)
  }
  const broken = await patch(app, 1, '{"name":')
  t.equal(broken.statusCode, 400)
  t.equal(broken.json().code, 'invalid_json')
  t.same(await read(app, 1), before, 'nothing changed')
})

t.test('updatePet refuses a body in a media type it does not declare', async (t) => {
  const app = await build(t)
  await addPet(app, { name: 'Rex', categoryId: 2 })
  const before = await read(app, 1)
  const refusal = errorBody('unsupported_media_type', 'Content-Type must be application/merge-patch+json or application/json', 400)
  for (const type of ['text/plain', 'application/json-patch+json', 'application/x-www-form-urlencoded']) {
    const res = await patch(app, 1, '{"name":"Tom"}', { ...AUTH, 'content-type': type })
    t.equal(res.statusCode, 400, type)
    t.match(res.headers, STABILITY, type)
    t.same(res.json(), refusal, type)
  }
  const latin1 = await patch(app, 1, '{"name":"Tom"}', { ...AUTH, 'content-type': 'application/merge-patch+json; charset=latin1' })
  t.equal(latin1.statusCode, 400)
  t.equal(latin1.json().code, 'unsupported_media_type')
  t.same(await read(app, 1), before, 'nothing changed')
})

t.test('If-Match makes the edit conditional on the current ETag', async (t) => {
  const app = await build(t)
  await addPet(app, { name: 'Rex', categoryId: 2, status: 'available' })
  const first = await read(app, 1)

  const matched = await patch(app, 1, '{"name":"Rexy"}', { ...PATCH_HEADERS, 'if-match': first.etag! })
  t.equal(matched.statusCode, 200, 'the current ETag matches')
  t.equal(matched.body, petBody({ id: 1, name: 'Rexy', categoryId: 2, status: 'available' }))
  const second = await read(app, 1)
  t.equal(matched.headers.etag, second.etag)
  t.not(second.etag, first.etag, 'the ETag changed with the pet')

  const stale = errorBody('precondition_failed', 'Pet 1 was not changed: its current ETag is not one If-Match names', 412)
  for (const ifMatch of [first.etag!, `W/${second.etag!}`, '"nonsense"', `${first.etag!}, "other"`]) {
    const res = await patch(app, 1, '{"status":"sold"}', { ...PATCH_HEADERS, 'if-match': ifMatch })
    t.equal(res.statusCode, 412, ifMatch)
    t.equal(res.headers['content-type'], JSON_TYPE, ifMatch)
    t.match(res.headers, { ...STABILITY, 'cache-control': 'no-store' }, ifMatch)
    t.notOk(res.headers.etag, ifMatch)
    t.same(res.json(), stale, ifMatch)
  }
  t.same(await read(app, 1), second, 'a weak tag, a stale one or another changes nothing')

  const listed = await patch(app, 1, '{"status":"sold"}', { ...PATCH_HEADERS, 'if-match': `"other", ${second.etag!}` })
  t.equal(listed.statusCode, 200, 'a list holding the current ETag matches')
  const any = await patch(app, 1, '{"status":null}', { ...PATCH_HEADERS, 'if-match': '*' })
  t.equal(any.statusCode, 200, '* matches any existing pet')
  t.equal(any.body, petBody({ id: 1, name: 'Rexy', categoryId: 2 }))

  const missing = await patch(app, 2, '{}', { ...PATCH_HEADERS, 'if-match': '*' })
  t.equal(missing.statusCode, 404, '* matches no missing pet')
  t.same(missing.json(), errorBody('not_found', 'Pet 2 not found', 404))
})

t.test('of edits sent at once with the same If-Match, exactly one is made', async (t) => {
  const app = await build(t)
  await addPet(app, { name: 'Rex', categoryId: 2 })
  const { etag } = await read(app, 1)
  const answers = await Promise.all(Array.from({ length: 10 }, (_, i) =>
    patch(app, 1, JSON.stringify({ name: `Rex ${i}` }), { ...PATCH_HEADERS, 'if-match': etag! })))
  const made = answers.filter((res) => res.statusCode === 200)
  t.equal(made.length, 1, 'one 200')
  t.equal(answers.filter((res) => res.statusCode === 412).length, 9, 'the others 412')
  t.equal((await read(app, 1)).body, made[0]!.body, 'the pet is the one edit made')
})

t.test('updatePet answers 404 for a missing pet and 400 for a malformed id', async (t) => {
  const app = await build(t)
  for (const id of ['1', '9007199254740993', '9223372036854775807']) {
    const res = await patch(app, id, '{"name":"Rex"}')
    t.equal(res.statusCode, 404, id)
    t.equal(res.headers['content-type'], JSON_TYPE, id)
    t.match(res.headers, { ...STABILITY, 'cache-control': 'no-store' }, id)
    t.same(res.json(), errorBody('not_found', `Pet ${id} not found`, 404), id)
  }
  for (const [id, message] of [['abc', 'params/petId must be integer'], ['0', 'params/petId must be >= 1']]) {
    const res = await patch(app, id!, '{}')
    t.equal(res.statusCode, 400, id)
    t.same(res.json(), errorBody('invalid_request', message!, 400), id)
  }
})

t.test('updatePet without a key answers 401 and changes nothing', async (t) => {
  const app = await build(t)
  await addPet(app, { name: 'Rex', categoryId: 2 })
  const before = await read(app, 1)
  const res = await app.inject({ method: 'PATCH', url: '/v1/pets/1', headers: { 'content-type': 'application/merge-patch+json' }, payload: '{"name":"Tom"}' })
  t.equal(res.statusCode, 401)
  t.equal(res.headers['content-type'], JSON_TYPE)
  t.match(res.headers, { ...STABILITY, 'www-authenticate': 'Bearer realm="petstore"', 'cache-control': 'no-store' })
  t.same(res.json(), errorBody('unauthorized', 'Missing API key: send Authorization: Bearer <API_KEY>', 401))
  t.same(await read(app, 1), before)
})

t.test('while an open order holds a pet its status cannot change; its name and category can', async (t) => {
  const app = await build(t)
  await addPet(app, { name: 'Rex', categoryId: 2, status: 'available' })
  await addPet(app, { name: 'Tom', categoryId: 2, status: 'available' })
  // The order makes Rex pending; the one placed complete makes Tom sold.
  const placed = await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: 1 } })
  t.equal(placed.statusCode, 201)
  const orderId = placed.json().id
  const completed = await app.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: 2, complete: true } })
  t.equal(completed.statusCode, 201)

  const held = errorBody('conflict', `Pet 1 is held by open order ${orderId}; its status cannot change until the order is completed or cancelled`, 409)
  for (const payload of ['{"status":"available"}', '{"status":null}', '{"name":"Rexy","status":"sold"}']) {
    const before = await read(app, 1)
    const res = await patch(app, 1, payload)
    t.equal(res.statusCode, 409, payload)
    t.equal(res.headers['content-type'], JSON_TYPE, payload)
    t.match(res.headers, { ...STABILITY, 'cache-control': 'no-store' }, payload)
    t.same(res.json(), held, payload)
    t.same(await read(app, 1), before, `${payload}: nothing changed`)
  }
  const renamed = await patch(app, 1, '{"name":"Rexy","categoryId":3,"status":"pending"}')
  t.equal(renamed.statusCode, 200, 'name and category change; the status given is the current one')
  t.equal(renamed.body, petBody({ id: 1, name: 'Rexy', categoryId: 3, status: 'pending' }))

  const sold = await patch(app, 2, '{"status":"available"}')
  t.equal(sold.statusCode, 200, 'a complete order holds nothing')

  const cancelled = await app.inject({ method: 'DELETE', url: `/v1/store/orders/${orderId}`, headers: AUTH })
  t.equal(cancelled.statusCode, 204)
  const freed = await patch(app, 1, '{"status":"available"}')
  t.equal(freed.statusCode, 200, 'once the order is cancelled the status may change')
  t.equal(freed.body, petBody({ id: 1, name: 'Rexy', categoryId: 3, status: 'available' }))
})

t.test('reads show an edit at once, with a new ETag', async (t) => {
  const app = await build(t)
  await addPet(app, { name: 'Rex', categoryId: 2, status: 'available' })
  const pet = await read(app, 1)
  const list = await app.inject({ url: '/v1/pets', headers: AUTH })
  const available = await app.inject({ url: '/v1/pets?status=available', headers: AUTH })
  t.equal(available.body, `[${pet.body}]`)

  const res = await patch(app, 1, '{"status":"sold"}')
  t.equal(res.statusCode, 200)
  const edited = petBody({ id: 1, name: 'Rex', categoryId: 2, status: 'sold' })

  const again = await app.inject({ url: '/v1/pets/1', headers: { ...AUTH, 'if-none-match': pet.etag! } })
  t.equal(again.statusCode, 200, 'the old ETag no longer matches')
  t.equal(again.body, edited)
  t.equal(again.headers.etag, res.headers.etag)
  const listAgain = await app.inject({ url: '/v1/pets', headers: { ...AUTH, 'if-none-match': list.headers.etag! } })
  t.equal(listAgain.statusCode, 200)
  t.equal(listAgain.body, `[${edited}]`)
  t.not(listAgain.headers.etag, list.headers.etag)
  const availableAgain = await app.inject({ url: '/v1/pets?status=available', headers: AUTH })
  t.equal(availableAgain.body, '[]', 'the status filter sees it too')
  const sold = await app.inject({ url: '/v1/pets?status=sold', headers: AUTH })
  t.equal(sold.body, `[${edited}]`)
})

t.test('PostgreSQL: an order placed while the edit runs is seen by it', { skip: TEST_DATABASE !== 'postgres' && 'PostgreSQL only (PETSTORE_TEST_DATABASE=postgres)' }, async (t) => {
  const app = await build(t)
  await addPet(app, { name: 'Rex', categoryId: 2, status: 'available' })
  // An order being placed: inserted, not yet committed, so it holds the pet's key lock.
  const placing = await app.db.startTransaction().execute()
  const { id: orderId } = await placing.insertInto('orders').values({ pet_id: 1, quantity: 1, ship_date: null, complete: 0 }).returning('id').executeTakeFirstOrThrow()
  const edit = patch(app, 1, '{"status":"sold"}')
  await until(async () => {
    const { rows } = await sql<{ waiting: string }>`select count(*) as waiting from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(app.db)
    return Number(rows[0]!.waiting) > 0
  }, 'the edit to wait for the pet\'s row')
  await placing.commit().execute()
  const res = await edit
  t.equal(res.statusCode, 409, 'the edit waited for the order and saw it')
  t.same(res.json(), errorBody('conflict', `Pet 1 is held by open order ${String(orderId)}; its status cannot change until the order is completed or cancelled`, 409))
  t.equal((await read(app, 1)).body, petBody({ id: 1, name: 'Rex', categoryId: 2, status: 'available' }))
})
