/**
 * API keys in the database, on whichever database this run tests: made, found, listed,
 * rotated, revoked and marked as used; only hashes are stored.
 */
import t from 'tap'
import { hashKey } from '../../../src/features/api-keys/key-material.ts'
import {
  createApiKey, currentKeys, findActiveApiKeys, listApiKeys, recordKeyUse, revokeApiKeys, rotateApiKey
} from '../../../src/features/api-keys/repository.ts'
import { build } from '../../helpers/app.ts'

const EVERY = ['pets:read', 'pets:write', 'orders:read', 'orders:write']
const at = (iso: string) => new Date(iso)

t.test('keys are made, found by id or name, listed, used and revoked', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  const made = at('2026-11-22T10:00:00.000Z')
  const first = await createApiKey(app.db, { name: 'billing', scopes: EVERY }, made)
  const second = await createApiKey(app.db, { name: '4242', scopes: ['pets:read'], expiresAt: at('2026-12-22T10:00:00.000Z') }, made)
  t.same(first.info, {
    id: 1,
    name: 'billing',
    prefix: first.key.slice(0, 10),
    scopes: EVERY,
    createdAt: '2026-11-22T10:00:00.000Z',
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    replacedAt: null
  })
  t.same(second.info.scopes, ['pets:read'])
  t.equal(second.info.expiresAt, '2026-12-22T10:00:00.000Z')
  await t.rejects(createApiKey(app.db, { name: 'billing', scopes: EVERY }), /^an active key named "billing" already exists: rotate it to replace it, or revoke it first$/)

  t.same((await findActiveApiKeys(app.db, { id: 1n })).map((key) => key.name), ['billing'])
  t.same((await findActiveApiKeys(app.db, { name: '4242' })).map((key) => key.id), [2])
  t.same(new Set((await currentKeys(app.db)).map((key) => JSON.stringify(key))), new Set([
    JSON.stringify({ hash: hashKey(first.key), scopes: EVERY, expiresAt: null }),
    JSON.stringify({ hash: hashKey(second.key), scopes: ['pets:read'], expiresAt: '2026-12-22T10:00:00.000Z' })
  ]))

  await recordKeyUse(app.db, new Map([[hashKey(first.key), at('2026-11-22T11:00:00.000Z')], [hashKey(second.key), at('2026-11-22T11:30:00.000Z')]]))
  await recordKeyUse(app.db, new Map())
  const [used] = await revokeApiKeys(app.db, { name: '4242' }, at('2026-11-22T12:00:00.000Z'))
  t.equal(used?.revokedAt, '2026-11-22T12:00:00.000Z')
  t.same(await revokeApiKeys(app.db, { id: 2n }), [], 'a revoked key is not revoked twice')
  t.same((await listApiKeys(app.db)).map(({ name, lastUsedAt, revokedAt }) => ({ name, lastUsedAt, revokedAt })), [
    { name: 'billing', lastUsedAt: '2026-11-22T11:00:00.000Z', revokedAt: null },
    { name: '4242', lastUsedAt: '2026-11-22T11:30:00.000Z', revokedAt: '2026-11-22T12:00:00.000Z' }
  ])
  t.same((await currentKeys(app.db)).map((key) => key.hash), [hashKey(first.key)])
  t.same(await findActiveApiKeys(app.db, { name: '4242' }), [], 'revoked keys are not active')
  t.match((await createApiKey(app.db, { name: '4242', scopes: EVERY })).info, { id: 3, name: '4242' }, 'a revoked name can be used again')
})

t.test('an expired key keeps its name until it is rotated or revoked, and says so', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  await createApiKey(app.db, { name: 'old', scopes: EVERY, expiresAt: at('2026-11-23T00:00:00.000Z') }, at('2026-11-22T00:00:00.000Z'))
  const now = at('2026-11-24T00:00:00.000Z')
  await t.rejects(createApiKey(app.db, { name: 'old', scopes: EVERY }, now),
    /^a key named "old" already exists, expired since 2026-11-23T00:00:00.000Z: rotate it to replace it, or revoke it first$/)
  t.equal((await currentKeys(app.db)).length, 1, 'an expired key is still loaded, so its 401 can say it expired')
})

t.test('a rotation makes a key of the same name and scopes, and ends the old one after its grace', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  const made = at('2026-11-22T10:00:00.000Z')
  const old = await createApiKey(app.db, { name: 'site', scopes: ['pets:read', 'orders:read'] }, made)
  const now = at('2026-11-24T10:00:00.000Z')
  const rotated = await rotateApiKey(app.db, { name: 'site' }, { graceMs: 3_600_000 }, now)
  t.ok(rotated)
  t.not(rotated!.key, old.key)
  t.match(rotated!.info, { id: 2, name: 'site', scopes: ['pets:read', 'orders:read'], createdAt: now.toISOString(), expiresAt: null, replacedAt: null })
  t.match(rotated!.replaced, { id: 1, expiresAt: '2026-11-24T11:00:00.000Z', replacedAt: now.toISOString(), revokedAt: null })
  t.same((await findActiveApiKeys(app.db, { name: 'site' })).map((key) => key.id), [1, 2], 'during the grace two keys share the name')
  t.same((await currentKeys(app.db)).length, 2)

  const again = await rotateApiKey(app.db, { name: 'site' }, { graceMs: 0, expiresAt: at('2027-01-01T00:00:00.000Z') }, now)
  t.match(again!.replaced, { id: 2, expiresAt: now.toISOString() }, 'a grace of 0 ends the old key now')
  t.match(again!.info, { id: 3, expiresAt: '2027-01-01T00:00:00.000Z' })
  t.equal(await rotateApiKey(app.db, { id: 1n }, { graceMs: 0 }, now), undefined, 'a key already replaced is not rotated again')
  t.equal(await rotateApiKey(app.db, { name: 'nobody' }, { graceMs: 0 }, now), undefined)

  const revoked = await revokeApiKeys(app.db, { name: 'site' }, now)
  t.same(revoked.map((key) => key.id), [1, 2, 3], 'revoking a name revokes every key of it')
  t.same(await currentKeys(app.db), [])
})

t.test('a rotation never lengthens the old key\'s life', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  await createApiKey(app.db, { name: 'short', scopes: EVERY, expiresAt: at('2026-11-24T10:30:00.000Z') }, at('2026-11-24T00:00:00.000Z'))
  const rotated = await rotateApiKey(app.db, { name: 'short' }, { graceMs: 3_600_000 }, at('2026-11-24T10:00:00.000Z'))
  t.equal(rotated!.replaced.expiresAt, '2026-11-24T10:30:00.000Z')
})

t.test('a rotation gives the new key the old key\'s lifetime from now, unless told another expiry', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  await createApiKey(app.db, { name: 'month', scopes: EVERY, expiresAt: at('2026-12-22T10:00:00.000Z') }, at('2026-11-22T10:00:00.000Z'))
  const rotated = await rotateApiKey(app.db, { name: 'month' }, { graceMs: 0 }, at('2026-11-24T12:00:00.000Z'))
  t.match(rotated!.info, { createdAt: '2026-11-24T12:00:00.000Z', expiresAt: '2026-12-24T12:00:00.000Z' }, 'thirty days from the rotation')
  const expired = await rotateApiKey(app.db, { name: 'month' }, { graceMs: 0 }, at('2027-02-01T00:00:00.000Z'))
  t.equal(expired!.info.expiresAt, '2027-03-03T00:00:00.000Z', 'the same from an expired key')
  const told = await rotateApiKey(app.db, { name: 'month' }, { graceMs: 0, expiresAt: at('2027-02-02T00:00:00.000Z') }, at('2027-02-01T00:00:00.000Z'))
  t.equal(told!.info.expiresAt, '2027-02-02T00:00:00.000Z')
  await createApiKey(app.db, { name: 'forever', scopes: EVERY }, at('2026-11-22T10:00:00.000Z'))
  const forever = await rotateApiKey(app.db, { name: 'forever' }, { graceMs: 0 }, at('2026-11-24T12:00:00.000Z'))
  t.equal(forever!.info.expiresAt, null, 'a key that never expired is replaced by one that never expires')
})
