/**
 * The read ceiling: Fastify answering `GET /v1/pets` with a page of 20 pets computed once
 * at start, behind a bearer-key check, and nothing else. No database, validation or
 * headers beyond Fastify's own: what a listing could cost at best on this machine.
 */
import Fastify from 'fastify'

const keys = new Set(process.env.PETSTORE_API_KEYS!.split(','))
const page = JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ id: i + 1, name: 'Rex', categoryId: 1, status: 'available' })))

const app = Fastify()
app.addHook('onRequest', async (request, reply) => {
  const header = request.headers.authorization ?? ''
  if (!header.startsWith('Bearer ') || !keys.has(header.slice(7))) {
    return reply.code(401).send({ code: 'unauthorized', message: 'Invalid API key', status: 401 })
  }
})
app.get('/v1/pets', async (_request, reply) => reply.type('application/json; charset=utf-8').send(page))

const address = await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' })
console.log(`Read ceiling on ${address}/v1`)
