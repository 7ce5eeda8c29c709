/**
 * A real full disk under the real server: its SQLite file on a tiny tmpfs that the test
 * fills. Mounting needs root (as on CI); elsewhere the test is skipped with a message, and
 * test/database/sqlite-faults.test.ts still makes the database itself full.
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, openSync, rmSync, writeSync, closeSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { DATABASE_UNAVAILABLE } from '../helpers/answers.ts'
import { until } from '../helpers/until.ts'
import { startServer, tempDir } from '../helpers/process.ts'

const KEY = 'disk-full-test-key-not-a-secret'

function mountTmpfs (dir: string): string | false {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', dir], { stdio: 'pipe' })
    return false
  } catch (error) {
    return `a full disk needs a tmpfs, and mounting one failed (${(error as Error).message.split('\n')[0]}); run as root to test it`
  }
}

/** Writes zeros into `file` until the disk refuses more. */
function fillDisk (file: string): void {
  const fd = openSync(file, 'w')
  const chunk = Buffer.alloc(4096)
  try {
    for (;;) writeSync(fd, chunk)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
  } finally {
    closeSync(fd)
  }
}

const disk = join(tempDir(t), 'disk')
mkdirSync(disk)
const skip = mountTmpfs(disk)
if (skip === false) t.teardown(() => { execFileSync('umount', [disk]) })

t.test('a full disk: writes get 503, reads and the process go on, and writes resume once there is room', { skip }, async (t) => {
  // Killed at the end of the test, before the disk is unmounted.
  const server = await startServer(t, { DATABASE_URL: join(disk, 'petstore.db'), PETSTORE_API_KEYS: KEY, RATE_LIMIT_MAX: '0' })
  const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }
  const create = (name: string) => fetch(`${server.base}/v1/pets`, { method: 'POST', headers, body: JSON.stringify({ name, categoryId: 1 }) })
  t.equal((await create('before')).status, 201)

  const filler = join(disk, 'filler')
  fillDisk(filler)
  const answers: Response[] = []
  await until(async () => {
    const res = await create('x'.repeat(200))
    answers.push(res)
    return res.status !== 201
  }, 'a write to meet the full disk')
  const refused = answers.at(-1)!
  t.equal(refused.status, 503)
  t.same(await refused.json(), DATABASE_UNAVAILABLE)
  t.equal(refused.headers.get('retry-after'), '2')
  t.equal((await fetch(`${server.base}/healthz`)).status, 200, 'the process goes on')
  t.equal((await fetch(`${server.base}/v1/pets?limit=1`, { headers })).status, 200, 'reads go on')
  // The log line travels through a pipe of its own, and may arrive after the answer.
  await until(() => /database or disk is full/.test(server.output()), 'the log names the real cause')
  t.match(server.output(), /database or disk is full/, 'the log names the real cause')
  t.notMatch(server.output(), /no transaction is active/, 'not an error from cleaning up after it')

  rmSync(filler)
  await until(async () => (await create('after')).status === 201, 'writes to resume')
  const listed = await (await fetch(`${server.base}/v1/pets?limit=100`, { headers })).json() as Array<{ name: string }>
  t.equal(listed.length, 1 + answers.filter((res) => res.status === 201).length + 1, 'every acknowledged write is there, and nothing else')
})
