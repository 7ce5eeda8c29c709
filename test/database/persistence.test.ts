import { join } from 'node:path'
import { sql } from 'kysely'
import t from 'tap'
import { buildApp } from '../../src/app.ts'
import { AUTH, JSON_HEADERS, TEST_KEY } from '../helpers/app.ts'
import { tempDir } from '../helpers/process.ts'

/**
 * The app on a file database, without overload shedding: beside the other test files on a
 * small machine the event loop lags, and a 503 would look like a lost pet.
 */
const onFile = (url: string, database: Record<string, unknown> = {}) =>
  buildApp({ database: { url, ...database }, apiKeys: [TEST_KEY], pressure: { maxEventLoopDelayMs: 0 } })

t.test('pets survive a restart on a file database, and ids are never reused', async (t) => {
  // A folder that does not exist yet: the service makes it.
  const url = join(tempDir(t), 'nested', 'petstore.db')
  const first = await onFile(url)
  for (const name of ['Rex', 'Tom', 'Kit']) {
    const created = await first.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name, categoryId: 1 } })
    t.equal(created.statusCode, 201, `${name} created`)
  }
  // The newest pet goes away (as an operator might remove it); its id must not come back.
  await first.db.deleteFrom('pets').where('id', '=', 3).execute()
  await first.close()

  const second = await onFile(`sqlite:${url}`)
  t.teardown(() => second.close())
  const listed = await second.inject({ url: '/v1/pets', headers: AUTH })
  t.equal(listed.body, '[{"id":1,"name":"Rex","categoryId":1},{"id":2,"name":"Tom","categoryId":1}]')
  const created = await second.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Ada', categoryId: 1 } })
  t.equal(created.json().id, 4)
  const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(second.db)
  t.equal(mode.rows[0]!.journal_mode, 'wal')
  // The savepoints' copies of the pages they change are kept in memory (2), not in a file (sqlite.ts).
  const temp = await sql<{ temp_store: bigint }>`pragma temp_store`.execute(second.db)
  t.equal(temp.rows[0]!.temp_store, 2n)
})

t.test('a file database is read through a memory map of SQLITE_MMAP_MB, none when it is 0', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  const mapped = async (sqliteMmapBytes?: number) => {
    const app = await onFile(url, sqliteMmapBytes === undefined ? {} : { sqliteMmapBytes })
    try {
      t.equal((await app.inject({ method: 'POST', url: '/v1/pets', headers: JSON_HEADERS, payload: { name: 'Rex', categoryId: 1 } })).statusCode, 201)
      const read = await app.inject({ url: '/v1/pets', headers: AUTH })
      t.equal(read.json().length > 0, true, 'the pets are read')
      return (await sql<{ mmap_size: number }>`pragma mmap_size`.execute(app.db)).rows[0]!.mmap_size
    } finally {
      await app.close()
    }
  }
  t.equal(Number(await mapped()), 256 * 1024 * 1024, 'the default')
  t.equal(Number(await mapped(0)), 0)
  t.equal(Number(await mapped(1024 * 1024)), 1024 * 1024)
})
