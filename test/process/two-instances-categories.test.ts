/**
 * Categories from the outside, as a shop uses them: two services as `npm start` runs them on
 * one PostgreSQL database. A rename on one instance shows on the other at once (its cached
 * answers are not served stale) and reaches an endpoint subscribed to `category.*`; the
 * available dogs are listed a page at a time through `Link`; a removed category's pets keep
 * their `categoryId`.
 */
import t from 'tap'
import { Webhook } from 'standardwebhooks'
import { TEST_SECRETS_KEY } from '../helpers/app.ts'
import { startServer } from '../helpers/process.ts'
import { startReceiver } from '../helpers/receiver.ts'
import { createPostgresDatabase, postgresSkipReason } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

const KEY = 'two-instances-categories-key-not-a-secret'
const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
const skip = await postgresSkipReason()

interface Category { id: number, name: string }
interface Pet { id: number, name: string, categoryId: number, status: string }

t.test('a shop names, renames, lists by and removes categories across two instances', { skip }, async (t) => {
  const env = {
    DATABASE_URL: await createPostgresDatabase(t),
    PETSTORE_API_KEYS: KEY,
    RATE_LIMIT_MAX: '0',
    LOG_LEVEL: 'warn',
    WEBHOOK_ALLOWED_NETWORKS: '127.0.0.1/32',
    WEBHOOK_SECRETS_KEY: TEST_SECRETS_KEY
  }
  // One after the other: the first migrates the database.
  const first = await startServer(t, env, { built: true })
  const second = await startServer(t, env, { built: true })
  const call = async (base: string, method: string, path: string, body?: unknown) => {
    const answer = await fetch(new URL(path, `${base}/v1/`), {
      method,
      headers: method === 'PATCH' ? { ...headers, 'content-type': 'application/merge-patch+json' } : headers,
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    return { status: answer.status, link: answer.headers.get('link'), body: answer.status === 204 ? undefined : await answer.json() as unknown }
  }

  const receiver = await startReceiver(t)
  const endpoint = await call(second.base, 'POST', 'webhook-endpoints', { url: receiver.url, events: ['category.*'] })
  t.equal(endpoint.status, 201)
  const webhook = new Webhook((endpoint.body as { secret: string }).secret)

  const made: Category[] = []
  for (const name of ['Dogs', 'Cats', 'Birds']) {
    const created = await call(first.base, 'POST', 'categories', { name })
    t.equal(created.status, 201, name)
    made.push(created.body as Category)
  }
  const [dog, cat] = made as [Category, Category, Category]
  const listed = await call(second.base, 'GET', 'categories')
  t.same(listed.body, made, 'the other instance lists all three, oldest first')
  t.same((await call(second.base, 'GET', `categories/${dog.id}`)).body, dog)

  const renamed = await call(first.base, 'PATCH', `categories/${dog.id}`, { name: 'Hounds' })
  t.same(renamed.body, { id: dog.id, name: 'Hounds' })
  t.same((await call(second.base, 'GET', `categories/${dog.id}`)).body, { id: dog.id, name: 'Hounds' }, 'the other instance shows the rename at once')
  t.same((await call(second.base, 'GET', 'categories')).body, [{ id: dog.id, name: 'Hounds' }, made[1], made[2]])

  // Five available dogs, one sold dog and an available cat, created on either instance.
  const pets: Pet[] = []
  for (const [i, [categoryId, status]] of ([[dog.id, 'available'], [cat.id, 'available'], [dog.id, 'available'], [dog.id, 'sold'], [dog.id, 'available'], [dog.id, 'available'], [dog.id, 'available']] as const).entries()) {
    const created = await call(i % 2 === 0 ? first.base : second.base, 'POST', 'pets', { name: `Pet ${i}`, categoryId, status })
    t.equal(created.status, 201)
    pets.push(created.body as Pet)
  }
  const availableDogs = pets.filter((pet) => pet.categoryId === dog.id && pet.status === 'available')
  const pages: Pet[][] = []
  let next: string | undefined = `pets?categoryId=${dog.id}&status=available&limit=2`
  while (next !== undefined) {
    const page = await call(pages.length % 2 === 0 ? second.base : first.base, 'GET', next)
    t.equal(page.status, 200)
    pages.push(page.body as Pet[])
    const link = /<([^>]+)>;\s*rel="next"/.exec(page.link ?? '')?.[1]
    next = link === undefined ? undefined : new URL(link, `${first.base}/v1/`).href
  }
  t.same(pages.map((page) => page.length), [2, 2, 1], 'a page at a time')
  t.same(pages.flat(), availableDogs, 'every available dog once, in order, and nothing else')

  const removed = await call(second.base, 'DELETE', `categories/${cat.id}`)
  t.equal(removed.status, 204)
  const gone = await call(first.base, 'GET', `categories/${cat.id}`)
  t.same(gone, { status: 404, link: null, body: { code: 'not_found', message: `Category ${cat.id} not found`, status: 404 } })
  const theCat = pets.find((pet) => pet.categoryId === cat.id)!
  t.same((await call(first.base, 'GET', `pets/${theCat.id}`)).body, theCat, 'its pet keeps its categoryId')
  t.same((await call(first.base, 'GET', `pets?categoryId=${cat.id}`)).body, [theCat], 'and is still listed by it')

  await until(() => receiver.received.length >= 5, 'the five category events delivered')
  const events = receiver.received.map(({ headers, body }) => webhook.verify(body, headers as Record<string, string>) as { type: string, data: Category, previous?: unknown })
  t.same(events.map((event) => event.type).sort(), ['category.created', 'category.created', 'category.created', 'category.deleted', 'category.updated'])
  const update = events.find((event) => event.type === 'category.updated')!
  t.same([update.data, update.previous], [{ id: dog.id, name: 'Hounds' }, { name: 'Dogs' }], 'the rename, with its previous name')
})
