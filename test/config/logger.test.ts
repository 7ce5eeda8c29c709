import t from 'tap'
import { loggerOptions, REDACTED_PATHS } from '../../src/config/logger.ts'

t.test('JSON by default off a terminal, pretty on one or when asked', async (t) => {
  const redact = { paths: REDACTED_PATHS, censor: '[redacted]' }
  const pretty = { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } }
  const plain = (options: object) => { const { serializers, ...rest } = options as { serializers: unknown }; return rest }
  t.same(plain(loggerOptions({ level: 'info', format: 'auto' }, false)), { level: 'info', redact })
  t.same(plain(loggerOptions({ level: 'info', format: 'auto' }, true)), { level: 'info', redact, transport: pretty })
  t.same(plain(loggerOptions({ level: 'warn', format: 'pretty' }, false)), { level: 'warn', redact, transport: pretty })
  t.same(plain(loggerOptions({ level: 'debug', format: 'json' }, true)), { level: 'debug', redact })
})
