/**
 * `npm run backup` against a real server taking creates from several connections: the
 * writers never see an error, and a server started on the copy serves every pet that was
 * acknowledged before the command started.
 */
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import t from 'tap'
import { until } from '../helpers/until.ts'
import { runScript, startServer, streamCreates, tempDir } from '../helpers/process.ts'
import { nextLink } from '../helpers/store.ts'

const KEY = 'backup-test-key-not-a-real-secret'
const SERVER_ENV = {
  PETSTORE_API_KEYS: KEY,
  RATE_LIMIT_MAX: '0',
  LOG_LEVEL: 'warn',
  // A write held up by a lock for longer than this is a 503, which the writers would see.
  SQLITE_LOCK_TIMEOUT_MS: '250',
  // On a busy machine the event loop lags and the overload check answers 503: not what this tests.
  MAX_EVENT_LOOP_DELAY_MS: '0'
}

/** Every pet the server lists, following the Link header page by page. */
async function listed (base: string): Promise<Map<number, string>> {
  const pets = new Map<number, string>()
  let next: string | undefined = '/v1/pets?limit=100'
  while (next !== undefined) {
    const response = await fetch(`${base}${next}`, { headers: { authorization: `Bearer ${KEY}` } })
    if (response.status !== 200) throw new Error(`${next}: ${response.status} ${await response.text()}`)
    for (const pet of await response.json() as Array<{ id: number, name: string }>) pets.set(pet.id, pet.name)
    next = nextLink(response.headers.get('link'))
  }
  return pets
}

t.test('a backup taken under a stream of creates holds every create acknowledged before it started', async (t) => {
  const dir = tempDir(t)
  const database = join(dir, 'petstore.db')
  const copy = join(dir, 'backup.db')
  const live = await startServer(t, { ...SERVER_ENV, DATABASE_URL: database })

  // Writers that go on whatever happens: any answer but a 201 fails the test below.
  const { outcomes, stop } = streamCreates(live.port, KEY, { endsOn: () => false })
  await until(() => outcomes.filter((outcome) => outcome.status === 201).length >= 200, '200 creates before the backup')

  // Every create answered so far, taken just before the command starts.
  const acknowledged = outcomes.filter((outcome) => outcome.status === 201).map((outcome) => JSON.parse(outcome.body!) as { id: number, name: string })
  const started = Date.now()
  const backup = await runScript('scripts/backup.ts', [copy], { DATABASE_URL: database })
  const finished = Date.now()
  await stop()

  t.match(backup.stdout, new RegExp(`^Backed up ${database} to ${copy}: \\d+ pages, \\d+ bytes\\n$`))
  t.equal(backup.stderr, '')
  t.same(outcomes.filter((outcome) => outcome.status !== 201), [], 'every create was answered 201, during the backup too')
  const during = outcomes.filter((outcome) => outcome.at > started && outcome.at < finished).length
  t.ok(during > 0, `creates went on during the backup (${during} answered while it ran)`)

  const sqlite = new SQLite(copy, { readonly: true })
  t.equal(sqlite.pragma('integrity_check', { simple: true }), 'ok', 'the copy passes integrity_check')
  t.equal(sqlite.pragma('journal_mode', { simple: true }), 'delete', 'the copy is one file, without a WAL')
  sqlite.close()

  const restored = await startServer(t, { ...SERVER_ENV, DATABASE_URL: copy })
  const served = await listed(restored.base)
  const missing = acknowledged.filter((pet) => served.get(pet.id) !== pet.name)
  t.same(missing, [], `all ${acknowledged.length} pets acknowledged before the backup are served from the copy`)
})
