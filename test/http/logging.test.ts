/**
 * What the logs hold: a request id on every request line, each 5xx once with its stack,
 * and never a key.
 */
import t from 'tap'
import { createApiKey } from '../../src/features/api-keys/repository.ts'
import { loggerOptions, REDACTED_PATHS } from '../../src/config/logger.ts'
import { AUTH, build, JSON_HEADERS, TEST_KEY } from '../helpers/app.ts'
import { captureLog } from '../helpers/log.ts'

t.test('no key ever reaches the log, at any level', async (t) => {
  const log = captureLog()
  const app = await build(t, { logger: { level: 'trace', stream: log.stream, redact: { paths: REDACTED_PATHS, censor: '[redacted]' } } })
  const { key: databaseKey } = await createApiKey(app.db, { name: 'logged', scopes: app.apiKeys.everyScope })
  await app.apiKeys.sync(app)
  const attempts = [
    `Bearer ${TEST_KEY}`, `Bearer ${databaseKey}`, `bearer ${databaseKey}`, 'Bearer pst_guessed-key-never-valid-000000000000000',
    `Basic ${TEST_KEY}`, databaseKey
  ]
  for (const authorization of attempts) {
    await app.inject({ url: '/v1/pets?limit=0', headers: { authorization } })
    await app.inject({ method: 'POST', url: '/v1/pets', headers: { ...JSON_HEADERS, authorization }, payload: '{"name":' })
  }
  t.ok(log.lines.length > 20, `${log.lines.length} lines captured`)
  for (const secret of [TEST_KEY, databaseKey, databaseKey.slice(10), 'pst_guessed-key-never-valid']) {
    t.notOk(log.text().includes(secret), `no trace of ${secret.slice(0, 8)}…`)
  }
})

t.test('no key reaches the log when a request or a set of headers is logged whole', async (t) => {
  const log = captureLog()
  const app = await build(t, { logger: { ...loggerOptions({ level: 'info', format: 'json' }, false), stream: log.stream } })
  const authorization = `Bearer ${TEST_KEY}`
  app.get('/v1/logs-whole', async (request) => {
    request.log.info({ req: request }, 'as req')
    request.log.info({ request }, 'as request')
    request.log.info({ headers: request.headers }, 'as headers')
    request.log.info({ err: Object.assign(new Error('upstream'), { headers: { authorization } }) }, 'as err')
    request.log.info({ error: { headers: { authorization } } }, 'as error')
    return 'logged'
  })
  const res = await app.inject({ url: '/v1/logs-whole', headers: { authorization } })
  t.equal(res.statusCode, 200)
  t.equal(log.lines.filter((line) => String(line.msg).startsWith('as ')).length, 5, 'every line written')
  t.notOk(log.text().includes(TEST_KEY), 'the key is nowhere in the log')
  const line = (msg: string) => log.lines.find((line) => line.msg === msg)!
  t.match(line('as request').request, { method: 'GET', url: '/v1/logs-whole' })
  t.equal(line('as request').request.headers, undefined, 'a request is logged without its headers')
  t.equal(line('as headers').headers.authorization, '[redacted]')
  t.equal(line('as err').err.headers.authorization, '[redacted]')
  t.equal(line('as error').error.headers.authorization, '[redacted]')
})

t.test('a credential sent as a query parameter never reaches the log', async (t) => {
  const log = captureLog()
  const app = await build(t, { logger: { ...loggerOptions({ level: 'info', format: 'json' }, false), stream: log.stream } })
  const names = ['api_key', 'access_token', 'api_token', 'apiToken', 'x-api-key', 'X-Api-Key', 'session', 'token', 'access_token[]', 'Password', 'client_secret', 'sig']
  const query = (value: string) => names.map((name) => `${name}=${value}`).join('&')
  const res = await app.inject({ url: `/v1/pets?limit=5&${query(TEST_KEY)}`, headers: { 'x-request-id': 'query-key' } })
  t.equal(res.statusCode, 401)
  t.notOk(log.text().includes(TEST_KEY), 'the key is nowhere in the log')
  const incoming = log.lines.find((line) => line.reqId === 'query-key' && line.req !== undefined)
  t.equal(incoming?.req.url, `/v1/pets?limit=5&${query('[redacted]')}`)
})

t.test('a key pasted into the path or any query value never reaches the log', async (t) => {
  const log = captureLog()
  const app = await build(t, { logger: { ...loggerOptions({ level: 'debug', format: 'json' }, false), stream: log.stream } })
  const { key } = await createApiKey(app.db, { name: 'pasted', scopes: app.apiKeys.everyScope })
  await app.apiKeys.sync(app)
  const escaped = key.replace('_', '%5F')
  const cases: Array<[string, string]> = [
    [`/v1/pets/${key}`, '/v1/pets/[redacted]'],
    [`/v1/pets/${escaped}`, '/v1/pets/[redacted]'],
    [`/v1/pets?limit=5&cursor=${key}`, '/v1/pets?limit=5&cursor=[redacted]'],
    [`/v1/pets?status=${escaped}`, '/v1/pets?status=[redacted]'],
    [`/nowhere/${key}?q=${key}`, '/nowhere/[redacted]?q=[redacted]']
  ]
  for (const [i, [url, logged]] of cases.entries()) {
    const res = await app.inject({ url, headers: { ...AUTH, 'x-request-id': `pasted-${i}` } })
    t.ok(res.statusCode >= 400, `${logged} is refused`)
    const lines = log.lines.filter((line) => line.reqId === `pasted-${i}` && line.req !== undefined)
    t.same(lines.map((line) => line.req.url), [logged, logged], `${logged}: arrival and completion`)
  }
  t.notOk(log.text().includes(key.slice('pst_'.length)), 'the key is nowhere in the log')
})

t.test('every request line carries the request id', async (t) => {
  const log = captureLog()
  const app = await build(t, { logger: { level: 'info', stream: log.stream } })
  await app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${TEST_KEY}`, 'x-request-id': 'log-1' } })
  await app.inject({ url: '/v1/pets', headers: { 'x-request-id': 'log-2' } })
  const requestLines = log.lines.filter((line) => line.req !== undefined || line.res !== undefined || line.code !== undefined)
  // Each request's completion line, and the 401's error line.
  t.ok(requestLines.length >= 3, `${requestLines.length} request lines`)
  for (const line of requestLines) t.match(line.reqId, /^log-[12]$/, line.msg)
  t.ok(log.lines.some((line) => line.reqId === 'log-2' && line.code === 'unauthorized'), 'the 401 is logged with its code')
})

t.test('a 5xx is logged once, with its stack and the request id', async (t) => {
  const log = captureLog()
  const app = await build(t, { logger: { level: 'info', stream: log.stream } })
  app.get('/v1/broken', async () => { throw new Error('disk on fire') })
  const res = await app.inject({ url: '/v1/broken', headers: { authorization: `Bearer ${TEST_KEY}`, 'x-request-id': 'boom-1' } })
  t.equal(res.statusCode, 500)
  t.notMatch(res.body, 'disk on fire')
  const errors = log.lines.filter((line) => line.level >= 50)
  t.equal(errors.length, 1)
  t.equal(errors[0]!.reqId, 'boom-1')
  t.equal(errors[0]!.err.message, 'disk on fire')
  t.match(errors[0]!.err.stack, /Error: disk on fire\n\s+at /)
})

t.test('at info, one line per request, when it is answered; the arrival line only at debug', async (t) => {
  for (const level of ['info', 'debug'] as const) {
    const log = captureLog()
    const app = await build(t, { logger: { ...loggerOptions({ level, format: 'json' }, false), stream: log.stream } })
    await app.inject({ url: '/v1/pets?limit=1', headers: { authorization: `Bearer ${TEST_KEY}`, 'x-request-id': 'one-line' } })
    const lines = log.lines.filter((line) => line.reqId === 'one-line')
    const completed = { msg: 'request completed', req: { method: 'GET', url: '/v1/pets?limit=1' }, res: { statusCode: 200 }, responseTime: Number }
    t.match(lines, level === 'info' ? [completed] : [{ msg: 'incoming request', req: { method: 'GET' } }, completed], level)
    t.equal(lines.length, level === 'info' ? 1 : 2, level)
  }
})
