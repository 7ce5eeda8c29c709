/**
 * Every other way a URL or a key reaches the log besides the request lines (see
 * ./logging.test.ts): error messages, error stacks, Fastify's own warnings and lines.
 */
import t from 'tap'
import Fastify from 'fastify'
import { loggerOptions } from '../../src/config/logger.ts'
import { generateKey } from '../../src/features/api-keys/key-material.ts'
import { RequestLog } from '../../src/http/request-log.ts'
import { AUTH, build } from '../helpers/app.ts'
import { captureLog } from '../helpers/log.ts'

const key = generateKey()
const secretPart = key.slice('pst_'.length)
const jsonLogger = (stream: { write (line: string): void }) => ({ ...loggerOptions({ level: 'info', format: 'json' }, false), stream })

t.test('a key sent as a parameter name is redacted from the refusal logged', async (t) => {
  const log = captureLog()
  const app = await build(t, { logger: jsonLogger(log.stream) })
  for (const url of [`/v1/pets?${key}=1`, `/v1/pets?limit=5&${key}`]) {
    const res = await app.inject({ url, headers: { ...AUTH, 'x-request-id': 'named' } })
    t.equal(res.statusCode, 400, url)
  }
  const refusals = log.lines.filter((line) => line.reqId === 'named' && line.code === 'invalid_request').map((line) => line.msg)
  t.same(refusals, Array(2).fill('querystring must NOT have additional property \'[redacted]\''))
  t.notOk(log.text().includes(secretPart), 'the key is nowhere in the log')
})

t.test('an error logged with a URL or a key in its message or stack has them redacted', async (t) => {
  const log = captureLog()
  const app = await build(t, { logger: jsonLogger(log.stream) })
  app.get('/v1/upstream', async () => {
    throw new Error('upstream refused', { cause: new Error(`GET https://upstream.example/x?limit=5&api_token=abc123&q=${key} (key "${key}")`) })
  })
  const res = await app.inject({ url: '/v1/upstream', headers: { ...AUTH, 'x-request-id': 'upstream' } })
  t.equal(res.statusCode, 500)
  const [error] = log.lines.filter((line) => line.reqId === 'upstream' && line.level >= 50)
  t.equal(error?.err.message, 'upstream refused: GET https://upstream.example/x?limit=5&api_token=[redacted]&q=[redacted] (key "[redacted]")')
  t.match(error?.err.stack, /^Error: upstream refused\n\s+at /)
  t.match(error?.err.stack, 'caused by: Error: GET https://upstream.example/x?limit=5&api_token=[redacted]&q=[redacted] (key "[redacted]")')
  t.notOk(log.text().includes('abc123'), 'the token is nowhere in the log')
  t.notOk(log.text().includes(secretPart), 'the key is nowhere in the log')
})

t.test('Fastify\'s warning of a reply sent twice names the URL redacted in its error', async (t) => {
  const log = captureLog()
  const app = await build(t, { logger: jsonLogger(log.stream) })
  app.get('/v1/twice', (_request, reply) => { reply.send('once'); reply.send('twice') })
  const res = await app.inject({ url: `/v1/twice?access_token=abc123&q=${key}`, headers: { ...AUTH, 'x-request-id': 'twice' } })
  t.equal(res.body, 'once')
  const [warning] = log.lines.filter((line) => line.reqId === 'twice' && line.level === 40)
  const redacted = 'Reply was already sent, did you forget to "return reply" in "/v1/twice?access_token=[redacted]&q=[redacted]" (GET)?'
  t.equal(warning?.err.message, redacted)
  t.match(warning?.err.stack, `FastifyError: ${redacted}\n`)
  // The line's `msg` still quotes the URL: pino copies it from the error itself, before any
  // serializer, and only a hook on every log call (the request line's included) could reach
  // it. No handler of the service sends twice, so this warning never comes from its routes.
})

t.test('the request log\'s lines for Fastify\'s own 404 and error handler hold no credential', async (t) => {
  const log = captureLog()
  // No handlers of our own: Fastify's defaults log through the log controller.
  const app = Fastify({ logger: jsonLogger(log.stream), logController: new RequestLog(), requestIdHeader: 'x-request-id' })
  t.teardown(() => app.close())
  app.get('/refused', async () => { throw Object.assign(new Error(`refused /refused?token=abc123 for ${key}`), { statusCode: 400 }) })
  app.get('/broken', async () => { throw new Error(`upstream /x?sig=abc123 refused ${key}`) })
  t.equal((await app.inject({ url: `/nowhere/${key}?token=abc123`, headers: { 'x-request-id': 'missing' } })).statusCode, 404)
  t.equal((await app.inject({ url: '/refused?token=abc123', headers: { 'x-request-id': 'refused' } })).statusCode, 400)
  t.equal((await app.inject({ url: '/broken', headers: { 'x-request-id': 'broken' } })).statusCode, 500)
  const messages = (reqId: string) => log.lines.filter((line) => line.reqId === reqId).map((line) => [line.msg, line.req?.url])
  t.same(messages('missing'), [['route not found', '/nowhere/[redacted]?token=[redacted]'], ['request completed', '/nowhere/[redacted]?token=[redacted]']])
  t.same(messages('refused'), [['refused /refused?token=[redacted] for [redacted]', '/refused?token=[redacted]'], ['request completed', '/refused?token=[redacted]']])
  t.same(messages('broken'), [['upstream /x?sig=[redacted] refused [redacted]', '/broken'], ['request completed', '/broken']])
  t.notOk(log.text().includes('abc123'), 'the token is nowhere in the log')
  t.notOk(log.text().includes(secretPart), 'the key is nowhere in the log')
})
