import t from 'tap'
import { loadConfig } from '../src/config.ts'

t.test('defaults', async (t) => {
  t.same(loadConfig({}), {
    port: 3000,
    host: '127.0.0.1',
    database: { url: './data/petstore.db', sqliteSynchronous: 'FULL' },
    apiKeys: [],
    logLevel: 'info',
    bodyLimit: 16384
  })
})

t.test('values from the environment', async (t) => {
  const config = loadConfig({
    PORT: '8080',
    HOST: '0.0.0.0',
    DATABASE_URL: 'sqlite:/var/lib/petstore.db',
    PETSTORE_API_KEYS: ' first-key-0123456789 , second-key-0123456789,',
    LOG_LEVEL: 'warn',
    BODY_LIMIT: '1024',
    SQLITE_SYNCHRONOUS: 'NORMAL'
  })
  t.same(config, {
    port: 8080,
    host: '0.0.0.0',
    database: { url: 'sqlite:/var/lib/petstore.db', sqliteSynchronous: 'NORMAL' },
    apiKeys: ['first-key-0123456789', 'second-key-0123456789'],
    logLevel: 'warn',
    bodyLimit: 1024
  })
})

t.test('a bad value stops the start with a message naming the variable', async (t) => {
  const cases: Array<[Record<string, string>, RegExp]> = [
    [{ PORT: 'eighty' }, /PORT must be integer/],
    [{ PORT: '70000' }, /PORT must be <= 65535/],
    [{ LOG_LEVEL: 'loud' }, /LOG_LEVEL must be equal to one of the allowed values/],
    [{ BODY_LIMIT: '0' }, /BODY_LIMIT must be >= 1/],
    [{ SQLITE_SYNCHRONOUS: 'OFF' }, /SQLITE_SYNCHRONOUS must be equal to one of the allowed values/],
    [{ DATABASE_URL: '' }, /DATABASE_URL must NOT have fewer than 1 characters/],
    [{ DATABASE_URL: 'postgres://localhost/petstore' }, /^DATABASE_URL: PostgreSQL is not supported/],
    [{ PETSTORE_API_KEYS: 'short' }, /^PETSTORE_API_KEYS: each key must be at least 16 characters/]
  ]
  for (const [env, message] of cases) {
    t.throws(() => loadConfig(env), { message }, JSON.stringify(env))
  }
})
