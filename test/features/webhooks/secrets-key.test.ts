/**
 * Where the key that seals webhook secrets comes from: WEBHOOK_SECRETS_KEY, or a key file
 * beside the SQLite database (./data/ for PostgreSQL) made on first use, readable by its
 * owner only, one key for every instance that makes it at once; a bad key or key file stops
 * the start, naming it, and so does a key that is not the one the stored secrets were
 * sealed with, or a key file gone while they exist (none is made then). With a database:
 * secrets-key-start.test.ts.
 */
import { readFileSync, statSync, writeFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { defaultKeyFile, replacementKey, secretsKeySource } from '../../../src/features/webhooks/secrets-key.ts'
import { newSecretsKey, openSecret, sealSecret, secretsKeyFromText } from '../../../src/features/webhooks/sealing.ts'
import { tempDir } from '../../helpers/process.ts'
import { TEST_SECRETS_KEY } from '../../helpers/app.ts'

/** A database that holds no sealed secret. */
const NONE = async () => []

t.test('the key file\'s place follows the database', async (t) => {
  t.equal(defaultKeyFile('./data/petstore.db'), join('data', 'webhook-secrets.key'))
  t.equal(defaultKeyFile('sqlite:/var/lib/petstore/petstore.db'), '/var/lib/petstore/webhook-secrets.key')
  t.equal(defaultKeyFile('postgres://petstore@db.internal/petstore'), join('data', 'webhook-secrets.key'))
  t.equal(defaultKeyFile(':memory:'), undefined, 'a database in memory has its key in memory')
})

t.test('WEBHOOK_SECRETS_KEY is the key; no file is made', async (t) => {
  const dir = tempDir(t)
  const key = await (await secretsKeySource({ key: TEST_SECRETS_KEY, file: join(dir, 'webhook-secrets.key'), storedKeyIds: NONE }))()
  t.equal(key.bytes.toString(), 'test-only-webhook-secrets-key-00')
  t.same(readdirSync(dir), [])
  await t.rejects(secretsKeySource({ key: 'too-short', storedKeyIds: NONE }), { message: 'WEBHOOK_SECRETS_KEY must be 32 random bytes in base64 (openssl rand -base64 32)' })
})

t.test('a key file is made on first use, owner-only, and read back by the next start', async (t) => {
  const file = join(tempDir(t), 'nested', 'webhook-secrets.key')
  const source = await secretsKeySource({ file, storedKeyIds: NONE })
  t.throws(() => statSync(file), { code: 'ENOENT' }, 'nothing made before a secret is sealed')
  const key = await source()
  t.equal(statSync(file).mode & 0o777, 0o600)
  t.equal(readFileSync(file, 'utf8').trim().length, 44, '32 bytes in base64')
  const sealed = sealSecret(key, 'whsec_example')
  const again = await (await secretsKeySource({ file, storedKeyIds: NONE }))()
  t.equal(openSecret(again, sealed), 'whsec_example', 'the next start opens what this one sealed')
  t.same(readdirSync(join(file, '..')), ['webhook-secrets.key'], 'no draft left behind')
})

t.test('instances making the key file at once all get the one key', async (t) => {
  const file = join(tempDir(t), 'webhook-secrets.key')
  const sources = await Promise.all(Array.from({ length: 8 }, async () => secretsKeySource({ file, storedKeyIds: NONE })))
  const keys = await Promise.all(sources.map(async (source) => source()))
  t.equal(new Set(keys.map((key) => key.id)).size, 1)
  t.equal(keys[0]!.bytes.toString('base64'), readFileSync(file, 'utf8').trim())
})

t.test('a key file that holds no key stops the start, naming it', async (t) => {
  const file = join(tempDir(t), 'webhook-secrets.key')
  writeFileSync(file, 'not a key\n')
  await t.rejects(secretsKeySource({ file, storedKeyIds: NONE }), { message: `the webhook secrets key file ${file} must be 32 random bytes in base64 (openssl rand -base64 32)` })
  const folder = tempDir(t)
  await t.rejects(secretsKeySource({ file: folder, storedKeyIds: NONE }), { message: new RegExp(`^the webhook secrets key file ${folder} cannot be read: EISDIR`) })
})

const recovery = (under: string) => 'or, if that key is lost, run `npm run webhooks -- rotate-secrets --all` with the same settings: ' +
  `it gives every endpoint a new secret, sealed with ${under}, to hand to its receiver`

t.test('a key that is not the one the stored secrets were sealed with stops the start, saying how to recover', async (t) => {
  const ours = secretsKeyFromText(TEST_SECRETS_KEY, 'WEBHOOK_SECRETS_KEY')
  const { key: other, text } = newSecretsKey()
  const stored = async () => [other.id]
  await t.rejects(secretsKeySource({ key: TEST_SECRETS_KEY, storedKeyIds: stored }), {
    message: `WEBHOOK_SECRETS_KEY holds the key ${ours.id}, but the webhook secrets in the database were sealed with the key ${other.id}: ` +
      `set WEBHOOK_SECRETS_KEY back to that key, on every instance, ${recovery(`the key ${ours.id}`)}`
  })
  const file = join(tempDir(t), 'webhook-secrets.key')
  writeFileSync(file, `${TEST_SECRETS_KEY}\n`)
  await t.rejects(secretsKeySource({ file, storedKeyIds: async () => [ours.id, other.id] }), {
    message: `the webhook secrets key file ${file} holds the key ${ours.id}, but the webhook secrets in the database were sealed with the key ${other.id}: ` +
      `put back the key file they were sealed with, or set WEBHOOK_SECRETS_KEY to that key, ${recovery(`the key ${ours.id}`)}`
  }, 'secrets sealed with two keys: the one that is not this')
  const key = await (await secretsKeySource({ key: text, storedKeyIds: stored }))()
  t.equal(key.id, other.id, 'the key they were sealed with starts')
})

t.test('a key file gone while sealed secrets remain stops the start, and no new one is made', async (t) => {
  const dir = tempDir(t)
  const file = join(dir, 'webhook-secrets.key')
  await t.rejects(secretsKeySource({ file, storedKeyIds: async () => ['0123456789abcdef', 'fedcba9876543210'] }), {
    message: `the webhook secrets key file ${file} is missing, but the webhook secrets in the database were sealed with the keys 0123456789abcdef, fedcba9876543210, ` +
      `so no new key file is made: put back the key file they were sealed with, or set WEBHOOK_SECRETS_KEY to that key, ${recovery('a new key file it makes')}`
  })
  t.same(readdirSync(dir), [], 'no key file made')
})

t.test('a key file is not made at first use once another instance has sealed secrets with a key of its own', async (t) => {
  const dir = tempDir(t)
  const file = join(dir, 'webhook-secrets.key')
  let stored: string[] = []
  const source = await secretsKeySource({ file, storedKeyIds: async () => stored })
  stored = ['0123456789abcdef']
  await t.rejects(source(), { message: /^the webhook secrets key file .* is missing, but the webhook secrets in the database were sealed with the key 0123456789abcdef, so no new key file is made/ })
  t.same(readdirSync(dir), [], 'no key file made')
  stored = []
  t.match((await source()).id, /^[0-9a-f]{16}$/, 'tried again at the next use')
  t.same(readdirSync(dir), ['webhook-secrets.key'])
})

t.test('the key for rotate-secrets --all: the one configured, or the key file, made when missing', async (t) => {
  t.same(await replacementKey({ key: TEST_SECRETS_KEY }), { key: secretsKeyFromText(TEST_SECRETS_KEY, 'x'), origin: 'WEBHOOK_SECRETS_KEY' })
  const file = join(tempDir(t), 'webhook-secrets.key')
  const made = await replacementKey({ file })
  t.equal(made.origin, `the key file ${file}, made now`)
  t.equal(made.key.bytes.toString('base64'), readFileSync(file, 'utf8').trim())
  t.same(await replacementKey({ file }), { key: made.key, origin: `the key file ${file}` })
  t.equal((await replacementKey({})).origin, 'a key in memory', 'a database in memory')
})
