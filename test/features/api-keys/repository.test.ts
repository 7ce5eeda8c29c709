/**
 * API keys in the database, on whichever database this run tests: made, found, listed,
 * revoked and marked as used; only hashes are stored.
 */
import t from 'tap'
import { hashKey } from '../../../src/features/api-keys/key-material.ts'
import { activeKeyHashes, createApiKey, DuplicateKeyNameError, findActiveApiKeys, listApiKeys, recordKeyUse, revokeApiKey } from '../../../src/features/api-keys/repository.ts'
import { build } from '../../helpers/app.ts'

t.test('keys are made, found by id or name, listed, used and revoked', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  const made = new Date('2026-11-22T10:00:00.000Z')
  const first = await createApiKey(app.db, 'billing', made)
  const second = await createApiKey(app.db, '4242', made)
  t.same(first.info, { id: 1, name: 'billing', prefix: first.key.slice(0, 10), createdAt: '2026-11-22T10:00:00.000Z', lastUsedAt: null, revokedAt: null })
  await t.rejects(createApiKey(app.db, 'billing'), new DuplicateKeyNameError('billing'))

  t.same((await findActiveApiKeys(app.db, { id: 1n })).map((key) => key.name), ['billing'])
  t.same((await findActiveApiKeys(app.db, { name: '4242' })).map((key) => key.id), [2])
  t.same(new Set(await activeKeyHashes(app.db)), new Set([hashKey(first.key), hashKey(second.key)]))

  await recordKeyUse(app.db, new Map([[hashKey(first.key), new Date('2026-11-22T11:00:00.000Z')]]))
  await recordKeyUse(app.db, new Map())
  const used = await revokeApiKey(app.db, { name: '4242' }, new Date('2026-11-22T12:00:00.000Z'))
  t.equal(used?.revokedAt, '2026-11-22T12:00:00.000Z')
  t.equal(await revokeApiKey(app.db, { id: 2n }), undefined, 'a revoked key is not revoked twice')
  t.same((await listApiKeys(app.db)).map(({ name, lastUsedAt, revokedAt }) => ({ name, lastUsedAt, revokedAt })), [
    { name: 'billing', lastUsedAt: '2026-11-22T11:00:00.000Z', revokedAt: null },
    { name: '4242', lastUsedAt: null, revokedAt: '2026-11-22T12:00:00.000Z' }
  ])
  t.same(await activeKeyHashes(app.db), [hashKey(first.key)])
  t.same(await findActiveApiKeys(app.db, { name: '4242' }), [], 'revoked keys are not active')
  t.match((await createApiKey(app.db, '4242')).info, { id: 3, name: '4242' }, 'a revoked name can be used again')
})
