/**
 * A pet is never sold twice: many clients ordering one pet at once get exactly one 201, and
 * 409 for the rest, on the database this run tests, on PostgreSQL, and on PostgreSQL with two
 * instances of the service sharing it.
 */
import t, { type Test } from 'tap'
import type { FastifyInstance } from 'fastify'
import { AUTH, build, JSON_HEADERS } from '../../helpers/app.ts'
import { errorBody } from '../../helpers/answers.ts'
import { createPostgresDatabase, postgresSkipReason } from '../../helpers/services.ts'
import { addPets, rowCount } from '../../helpers/store.ts'

const skip = await postgresSkipReason()
const CLIENTS = 30

/** CLIENTS orders for pet 1 at once, spread over `apps`; checks the outcome whole. */
async function orderAtOnce (t: Test, apps: FastifyInstance[], complete: boolean) {
  const [app] = apps as [FastifyInstance]
  await addPets(app, 1, { statuses: ['available'] })
  const responses = await Promise.all(Array.from({ length: CLIENTS }, (_, i) =>
    apps[i % apps.length]!.inject({ method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: 1, complete } })))
  const won = responses.filter((res) => res.statusCode === 201)
  const lost = responses.filter((res) => res.statusCode !== 201)
  t.equal(won.length, 1, 'exactly one order wins the pet')
  t.same(won[0]?.json(), { id: won[0]?.json().id, petId: 1, quantity: 1, complete })
  const status = complete ? 'sold' : 'pending'
  t.same(new Set(lost.map((res) => res.statusCode)), new Set([409]))
  for (const res of lost) t.same(res.json(), errorBody('conflict', `Pet 1 is not available (its status is ${status})`, 409))
  t.equal(await rowCount(app, 'orders'), 1, 'one order stored')
  const pet = await app.inject({ url: '/v1/pets/1', headers: AUTH })
  t.equal(pet.json().status, status)
}

t.test(`${CLIENTS} concurrent orders for one pet: one 201, the rest 409`, async (t) => {
  for (const complete of [false, true]) {
    await t.test(`complete: ${complete}`, async (t) => orderAtOnce(t, [await build(t)], complete))
  }
})

t.test('on PostgreSQL, one instance', { skip }, async (t) => {
  const url = await createPostgresDatabase(t)
  await orderAtOnce(t, [await build(t, { database: { url } })], false)
})

t.test('on PostgreSQL, two instances sharing the database', { skip }, async (t) => {
  for (const complete of [false, true]) {
    await t.test(`complete: ${complete}`, async (t) => {
      const url = await createPostgresDatabase(t)
      const apps = [await build(t, { database: { url } }), await build(t, { database: { url } })]
      await orderAtOnce(t, apps, complete)
    })
  }
})
