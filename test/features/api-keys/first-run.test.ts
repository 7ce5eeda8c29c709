import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyBaseLogger } from 'fastify'
import t from 'tap'
import { announceFirstRunKey, ensureFirstRunKey, firstRunKeyFile, firstRunMessage } from '../../../src/features/api-keys/first-run.ts'
import { createApiKey } from '../../../src/features/api-keys/repository.ts'
import { build } from '../../helpers/app.ts'
import { tempDir } from '../../helpers/process.ts'

t.test('with no key anywhere, a first key is made, works, and is stored as a hash', async (t) => {
  const app = await build(t, { apiKeys: [] })
  const key = await ensureFirstRunKey(app)
  t.match(key, /^pst_[A-Za-z0-9_-]{43}$/)
  const res = await app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${key!}` } })
  t.equal(res.statusCode, 200)
  const rows = await app.db.selectFrom('api_keys').select(['name', 'key_hash', 'key_prefix']).execute()
  t.equal(rows.length, 1)
  t.equal(rows[0]!.name, 'first-run')
  t.equal(rows[0]!.key_prefix, key!.slice(0, 10))
  t.match(rows[0]!.key_hash, /^[0-9a-f]{64}$/)
  t.equal(await ensureFirstRunKey(app), undefined, 'the next start makes none')
  t.match(firstRunMessage(key!, 'http://127.0.0.1:3000'), `curl -H 'Authorization: Bearer ${key!}' http://127.0.0.1:3000/v1/pets`)
})

t.test('no first key when keys come from the environment', async (t) => {
  const app = await build(t)
  t.equal(await ensureFirstRunKey(app), undefined)
  t.equal((await app.db.selectFrom('api_keys').selectAll().execute()).length, 0)
})

t.test('no first key when the database holds one', async (t) => {
  const app = await build(t, { apiKeys: [] })
  await createApiKey(app.db, { name: 'ops', scopes: app.apiKeys.everyScope })
  await app.apiKeys.sync(app)
  t.equal(await ensureFirstRunKey(app), undefined)
})

t.test('on a terminal the first key is shown there; without one it goes to a private file, and the log says where', async (t) => {
  const dir = tempDir(t)
  const logged: Array<[object, string]> = []
  const log = { warn: (object: object, message: string) => { logged.push([object, message]) } } as unknown as FastifyBaseLogger
  let shown = ''
  const terminal = { write: (text: string) => { shown += text } }
  const common = { key: 'pst_fake-first-run-key', baseUrl: 'http://127.0.0.1:3000', databaseUrl: join(dir, 'petstore.db'), terminal, log }

  await announceFirstRunKey({ ...common, isTerminal: true })
  t.match(shown, 'pst_fake-first-run-key')
  t.same(logged, [], 'nothing is logged')
  t.notOk(existsSync(join(dir, 'first-run-key.txt')))

  shown = ''
  writeFileSync(join(dir, 'first-run-key.txt'), 'left from an earlier run', { mode: 0o644 })
  await announceFirstRunKey({ ...common, isTerminal: false })
  t.equal(shown, '', 'nothing goes to stdout, which is the log stream')
  const file = join(dir, 'first-run-key.txt')
  t.equal(readFileSync(file, 'utf8'), firstRunMessage('pst_fake-first-run-key', 'http://127.0.0.1:3000') + '\n')
  t.equal(statSync(file).mode & 0o777, 0o600)
  t.same(logged.map(([object]) => object), [{ file }])
  t.notMatch(logged[0]![1], 'pst_fake')
})

t.test('the key file goes beside a SQLite database, else in the working directory', async (t) => {
  t.equal(firstRunKeyFile('./data/petstore.db', '/srv/app'), '/srv/app/data/first-run-key.txt')
  t.equal(firstRunKeyFile('sqlite:/var/lib/petstore/p.db', '/srv/app'), '/var/lib/petstore/first-run-key.txt')
  t.equal(firstRunKeyFile('postgres://db.internal/petstore', '/srv/app'), '/srv/app/first-run-key.txt')
  t.equal(firstRunKeyFile(':memory:', '/srv/app'), '/srv/app/first-run-key.txt')
})
