/**
 * The key ring's once-a-second sync: revocation keeps working while writing key use
 * fails, syncs never overlap, and failures that go on are logged loudly.
 */
import { sql } from 'kysely'
import t from 'tap'
import type { FastifyInstance } from 'fastify'
import { KeyRing } from '../../../src/features/api-keys/plugin.ts'
import { createApiKey } from '../../../src/features/api-keys/repository.ts'
import { build, recordingDatabase, TEST_DATABASE } from '../../helpers/app.ts'
import { captureLog } from '../../helpers/log.ts'
import { until } from '../../helpers/until.ts'

/** From now on, recording a key's last use fails, as on a full disk or a read-only replica. */
async function breakKeyUseWrites (app: FastifyInstance) {
  if (TEST_DATABASE === 'sqlite') {
    await sql`create trigger no_key_use before update of last_used_at on api_keys begin select raise(abort, 'disk full'); end`.execute(app.db)
  } else {
    await sql`create function no_key_use() returns trigger language plpgsql as $$ begin raise exception 'disk full'; end $$`.execute(app.db)
    await sql`create trigger no_key_use before update of last_used_at on api_keys for each row execute function no_key_use()`.execute(app.db)
  }
}

t.test('a revoked key is refused even while writing key use fails', async (t) => {
  const app = await build(t, { apiKeys: [], keySyncIntervalMs: 60_000 })
  const { key } = await createApiKey(app.db, { name: 'doomed', scopes: app.apiKeys.everyScope })
  await app.apiKeys.sync(app)
  const headers = { authorization: `Bearer ${key}` }
  t.equal((await app.inject({ url: '/v1/pets', headers })).statusCode, 200, 'the key works, and its use waits to be written')
  await breakKeyUseWrites(app)
  await app.db.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).execute()
  await t.rejects(app.apiKeys.sync(app), /disk full/, 'the write fails, and says so')
  t.equal((await app.inject({ url: '/v1/pets', headers })).statusCode, 401, 'yet the keys were reloaded')
})

t.test('syncs never overlap: a sync asked for while one runs shares its reload and its write', async (t) => {
  // The ring alone, over a database of its own: the app's timers (webhook claims, the feed's
  // poll) would add queries of their own to any count taken through it.
  const { db, statements } = await recordingDatabase(t)
  const app = { db } as FastifyInstance
  const ring = new KeyRing([], ['pets:read'])
  const { key } = await createApiKey(db, { name: 'counted', scopes: ring.everyScope })
  await ring.sync(app)
  t.ok(ring.identify(key), 'a use to write')
  statements.length = 0
  await Promise.all([ring.sync(app), ring.sync(app), ring.sync(app)])
  t.same(statements.map(kind).sort(), ['select api_keys', 'update api_keys'], 'one reload and one write of every use, in one statement')
  statements.length = 0
  await ring.sync(app)
  t.same(statements.map(kind), ['select api_keys'], 'once they are done, the next sync reloads again (with no use to write)')
})

/** What a recorded statement does, and to which table: `select api_keys`, say. */
function kind (statement: string): string {
  const verb = statement.split(' ', 1)[0]
  return `${verb} ${/\b(?:from|update|into)\s+"?(\w+)"?/.exec(statement)?.[1]}`
}

t.test('syncs that keep failing are logged loudly', async (t) => {
  const { stream, lines } = captureLog<{ level: number, msg: string, failures?: number }>()
  const app = await build(t, { apiKeys: [], keySyncIntervalMs: 10, logger: { level: 'warn', stream } })
  const { key } = await createApiKey(app.db, { name: 'busy', scopes: app.apiKeys.everyScope })
  await app.apiKeys.sync(app)
  await breakKeyUseWrites(app)
  // Each use leaves a last-use time to write, so each sync fails.
  await until(async () => {
    await app.inject({ url: '/v1/pets', headers: { authorization: `Bearer ${key}` } })
    return lines.some((line) => line.level >= 50)
  }, 'an error-level line')
  const loud = lines.find((line) => line.level >= 50)!
  t.equal(loud.failures, 5)
  t.match(loud.msg, /^API key sync has failed 5 times in a row/)
  t.equal(lines.filter((line) => line.level === 40 && line.msg === 'could not sync API keys').length >= 4, true, 'each failure before it is a warning')
})
