import t from 'tap'
import { loggerOptions, REDACTED_PATHS } from '../src/logger.ts'

t.test('JSON by default off a terminal, pretty on one or when asked', async (t) => {
  const redact = { paths: REDACTED_PATHS, censor: '[redacted]' }
  const pretty = { target: 'pino-pretty', options: { translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } }
  t.same(loggerOptions({ level: 'info', format: 'auto' }, false), { level: 'info', redact })
  t.same(loggerOptions({ level: 'info', format: 'auto' }, true), { level: 'info', redact, transport: pretty })
  t.same(loggerOptions({ level: 'warn', format: 'pretty' }, false), { level: 'warn', redact, transport: pretty })
  t.same(loggerOptions({ level: 'debug', format: 'json' }, true), { level: 'debug', redact })
})
