/**
 * Where the key that seals webhook secrets comes from: WEBHOOK_SECRETS_KEY, or a key file
 * beside the SQLite database (./data/ for PostgreSQL) made on first use, readable by its
 * owner only, one key for every instance that makes it at once; a bad key or key file stops
 * the start, naming it.
 */
import { readFileSync, statSync, writeFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { defaultKeyFile, secretsKeySource } from '../../../src/features/webhooks/secrets-key.ts'
import { openSecret, sealSecret } from '../../../src/features/webhooks/sealing.ts'
import { tempDir } from '../../helpers/process.ts'
import { TEST_SECRETS_KEY } from '../../helpers/app.ts'

t.test('the key file\'s place follows the database', async (t) => {
  t.equal(defaultKeyFile('./data/petstore.db'), join('data', 'webhook-secrets.key'))
  t.equal(defaultKeyFile('sqlite:/var/lib/petstore/petstore.db'), '/var/lib/petstore/webhook-secrets.key')
  t.equal(defaultKeyFile('postgres://petstore@db.internal/petstore'), join('data', 'webhook-secrets.key'))
  t.equal(defaultKeyFile(':memory:'), undefined, 'a database in memory has its key in memory')
})

t.test('WEBHOOK_SECRETS_KEY is the key; no file is made', async (t) => {
  const dir = tempDir(t)
  const key = await (await secretsKeySource({ key: TEST_SECRETS_KEY, file: join(dir, 'webhook-secrets.key') }))()
  t.equal(key.bytes.toString(), 'test-only-webhook-secrets-key-00')
  t.same(readdirSync(dir), [])
  await t.rejects(secretsKeySource({ key: 'too-short' }), { message: 'WEBHOOK_SECRETS_KEY must be 32 random bytes in base64 (openssl rand -base64 32)' })
})

t.test('a key file is made on first use, owner-only, and read back by the next start', async (t) => {
  const file = join(tempDir(t), 'nested', 'webhook-secrets.key')
  const source = await secretsKeySource({ file })
  t.throws(() => statSync(file), { code: 'ENOENT' }, 'nothing made before a secret is sealed')
  const key = await source()
  t.equal(statSync(file).mode & 0o777, 0o600)
  t.equal(readFileSync(file, 'utf8').trim().length, 44, '32 bytes in base64')
  const sealed = sealSecret(key, 'whsec_example')
  const again = await (await secretsKeySource({ file }))()
  t.equal(openSecret(again, sealed), 'whsec_example', 'the next start opens what this one sealed')
  t.same(readdirSync(join(file, '..')), ['webhook-secrets.key'], 'no draft left behind')
})

t.test('instances making the key file at once all get the one key', async (t) => {
  const file = join(tempDir(t), 'webhook-secrets.key')
  const sources = await Promise.all(Array.from({ length: 8 }, async () => secretsKeySource({ file })))
  const keys = await Promise.all(sources.map(async (source) => source()))
  t.equal(new Set(keys.map((key) => key.id)).size, 1)
  t.equal(keys[0]!.bytes.toString('base64'), readFileSync(file, 'utf8').trim())
})

t.test('a key file that holds no key stops the start, naming it', async (t) => {
  const file = join(tempDir(t), 'webhook-secrets.key')
  writeFileSync(file, 'not a key\n')
  await t.rejects(secretsKeySource({ file }), { message: `the webhook secrets key file ${file} must be 32 random bytes in base64 (openssl rand -base64 32)` })
  const folder = tempDir(t)
  await t.rejects(secretsKeySource({ file: folder }), { message: new RegExp(`^the webhook secrets key file ${folder} cannot be read: EISDIR`) })
})
