import t from 'tap'
import { loggerOptions, redactUrl, REDACTED_PATHS } from '../../src/config/logger.ts'

t.test('JSON by default off a terminal, pretty on one or when asked', async (t) => {
  const redact = { paths: REDACTED_PATHS, censor: '[redacted]' }
  const pretty = { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } }
  const plain = (options: object) => { const { serializers, ...rest } = options as { serializers: unknown }; return rest }
  t.same(plain(loggerOptions({ level: 'info', format: 'auto' }, false)), { level: 'info', redact })
  t.same(plain(loggerOptions({ level: 'info', format: 'auto' }, true)), { level: 'info', redact, transport: pretty })
  t.same(plain(loggerOptions({ level: 'warn', format: 'pretty' }, false)), { level: 'warn', redact, transport: pretty })
  t.same(plain(loggerOptions({ level: 'debug', format: 'json' }, true)), { level: 'debug', redact })
})

t.test('credentials sent in the query are redacted from logged URLs', async (t) => {
  const cases: Array<[string, string]> = [
    ['/v1/pets', '/v1/pets'],
    ['/v1/pets?limit=5', '/v1/pets?limit=5'],
    ['/v1/pets?api_key=pst_secret&limit=5', '/v1/pets?api_key=[redacted]&limit=5'],
    ['/v1/pets?limit=5&access_token=abc&token=def', '/v1/pets?limit=5&access_token=[redacted]&token=[redacted]'],
    ['/v1/pets?API-KEY=x&apikey=y&key=z&password=p&client_secret=s', '/v1/pets?API-KEY=[redacted]&apikey=[redacted]&key=[redacted]&password=[redacted]&client_secret=[redacted]'],
    ['/v1/pets?api%5Fkey=x', '/v1/pets?api%5Fkey=[redacted]'],
    ['/v1/pets?keys=1&monkey=2', '/v1/pets?keys=1&monkey=2']
  ]
  for (const [url, logged] of cases) t.equal(redactUrl(url), logged, url)
})
