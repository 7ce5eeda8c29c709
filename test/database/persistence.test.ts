import { join } from 'node:path'
import { sql } from 'kysely'
import t from 'tap'
import { buildApp } from '../../src/app.ts'
import { AUTH, JSON_HEADERS, TEST_KEY } from '../helpers/app.ts'
import { tempDir } from '../helpers/process.ts'

t.test('pets survive a restart on a file database, and ids are never reused', async (t) => {
  // A folder that does not exist yet: the service makes it.
  const url = join(tempDir(t), 'nested', 'petstore.db')
  const first = await buildApp({ database: { url }, apiKeys: [TEST_KEY] })
  for (const name of ['Rex', 'Tom', 'Kit']) {
    await first.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name, categoryId: 1 } })
  }
  // The newest pet goes away (as an operator might remove it); its id must not come back.
  await first.db.deleteFrom('pets').where('id', '=', 3).execute()
  await first.close()

  const second = await buildApp({ database: { url: `sqlite:${url}` }, apiKeys: [TEST_KEY] })
  t.teardown(() => second.close())
  const listed = await second.inject({ url: '/v1/pets', headers: AUTH })
  t.equal(listed.body, '[{"id":1,"name":"Rex","categoryId":1},{"id":2,"name":"Tom","categoryId":1}]')
  const created = await second.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Ada', categoryId: 1 } })
  t.equal(created.json().id, 4)
  const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(second.db)
  t.equal(mode.rows[0]!.journal_mode, 'wal')
})
