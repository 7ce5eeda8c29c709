/**
 * Every /v1 answer says how it may be cached: reads by the caller only, revalidated;
 * writes and errors never.
 */
import type { InjectOptions } from 'fastify'
import t from 'tap'
import { AUTH, build, JSON_HEADERS } from '../helpers/app.ts'

t.test('successful reads are private and revalidated; writes and errors are never stored', async (t) => {
  const app = await build(t, { rateLimit: { perKey: 100, anonymous: 1 } })
  const cases: Array<[string, InjectOptions, number, string]> = [
    ['createPet', { method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1, status: 'available' } }, 201, 'no-store'],
    ['listPets', { url: '/v1/pets', headers: AUTH }, 200, 'private, no-cache'],
    ['getPet', { url: '/v1/pets/1', headers: AUTH }, 200, 'private, no-cache'],
    ['placeOrder', { method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: 1 } }, 201, 'no-store'],
    ['listOrders', { url: '/v1/store/orders', headers: AUTH }, 200, 'private, no-cache'],
    ['cancelOrder', { method: 'DELETE', url: '/v1/store/orders/1', headers: AUTH }, 204, 'no-store'],
    ['a 400', { url: '/v1/pets?limit=0', headers: AUTH }, 400, 'no-store'],
    ['a 404 of getPet', { url: '/v1/pets/99', headers: AUTH }, 404, 'no-store'],
    ['a 404 of no route', { url: '/v1/nothing', headers: AUTH }, 404, 'no-store'],
    ['a 405', { method: 'PUT', url: '/v1/pets', headers: AUTH }, 405, 'no-store'],
    ['a complete order', { method: 'POST', url: '/v1/store/orders', headers: JSON_HEADERS, payload: { petId: 1, complete: true } }, 201, 'no-store'],
    ['a 409', { method: 'DELETE', url: '/v1/store/orders/2', headers: AUTH }, 409, 'no-store'],
    ['a 401', { url: '/v1/pets' }, 401, 'no-store'],
    ['a 429', { url: '/v1/pets' }, 429, 'no-store']
  ]
  for (const [what, request, status, cacheControl] of cases) {
    const res = await app.inject(request)
    t.equal(res.statusCode, status, what)
    t.equal(res.headers['cache-control'], cacheControl, what)
  }
})
