/**
 * `npm run keys` as run: names with control or invisible characters (keys.test.ts lists the
 * other files).
 */
import { join } from 'node:path'
import t from 'tap'
import { DEFAULTS } from '../../src/config/defaults.ts'
import { connect } from '../../src/database/connect.ts'
import { migrateToLatest } from '../../src/database/migrate.ts'
import { keys, keysFailure as failure, tempDir } from '../helpers/process.ts'

t.test('key names with control or invisible characters are refused, and never printed raw', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  for (const name of ['evil\u001b[2Jname', 'tab\there', 'rtl\u202Eeman', 'zero\u200Bwidth', 'x'.repeat(101)]) {
    const refused = await failure(url, 'create', '--name', name)
    t.equal(refused.code, 1, JSON.stringify(name))
    t.equal(refused.stderr, 'keys: a key name is 1 to 100 characters, with no control or invisible formatting characters\n')
  }
  // A name stored before the rule, or by another tool, is escaped when shown.
  const db = await connect({ ...DEFAULTS.database, url })
  await migrateToLatest(db)
  await db.insertInto('api_keys').values({ name: 'old\u001b[31mred', key_hash: 'x'.repeat(64), key_prefix: 'pst_abcdef', created_at: new Date().toISOString() }).execute()
  await db.destroy()
  const listed = await keys(url, 'list')
  t.notMatch(listed.stdout, '\u001b')
  t.match(listed.stdout, 'old\\u{1b}[31mred')
  t.equal((await keys(url, 'revoke', '1')).stdout, 'Revoked key "old\\u{1b}[31mred" (id 1).\n')
})
