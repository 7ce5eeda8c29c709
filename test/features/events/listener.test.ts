/**
 * PostgreSQL's LISTEN connection (src/features/events/listener.ts): `heardAll` resolves only
 * once every notification sent before it has been heard, which `events.settled` relies on
 * so that a test counting queries does not meet the look its own NOTIFY wakes a moment
 * later. Without the round trip, a notification still on its way is heard after the check.
 */
import t from 'tap'
import pg from 'pg'
import { TEST_DATABASE, testDatabaseUrl } from '../../helpers/app.ts'
import { until } from '../../helpers/until.ts'
import { listenForEvents } from '../../../src/features/events/listener.ts'
import { EVENTS_CHANNEL } from '../../../src/features/events/sequencer.ts'

t.test('heardAll resolves once the notifications sent before it are heard', { skip: TEST_DATABASE !== 'postgres' && 'PostgreSQL only: SQLite has no LISTEN' }, async (t) => {
  const pool = new pg.Pool({ connectionString: await testDatabaseUrl(t), max: 2 })
  t.teardown(() => pool.end())
  let heard = 0
  const failures: Error[] = []
  const listener = listenForEvents(pool, () => { heard++ }, (error) => { failures.push(error) })
  t.teardown(() => listener.close())
  // Once listening, it calls `heard` for what it may have missed meanwhile.
  await until(() => heard > 0, 'the listener to connect')
  for (let i = 0; i < 20; i++) {
    const before = heard
    await pool.query('select pg_notify($1, \'\')', [EVENTS_CHANNEL])
    await listener.heardAll()
    t.ok(heard > before, `notification ${i + 1}: heard by the time heardAll resolved`)
  }
  t.same(failures, [], 'the connection was never lost')
})

t.test('heardAll, with no connection, resolves at once', { skip: TEST_DATABASE !== 'postgres' && 'PostgreSQL only: SQLite has no LISTEN' }, async (t) => {
  // Nothing listens on port 1: the listener keeps trying, and heardAll does not wait for it.
  const pool = new pg.Pool({ connectionString: 'postgres://postgres@127.0.0.1:1/none', connectionTimeoutMillis: 1000 })
  t.teardown(() => pool.end())
  const failures: Error[] = []
  const listener = listenForEvents(pool, () => {}, (error) => { failures.push(error) })
  t.teardown(() => listener.close())
  await until(() => failures.length > 0, 'the first attempt to fail')
  await listener.heardAll()
  t.pass('resolved without a connection')
})
