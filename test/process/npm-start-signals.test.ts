/**
 * `npm start` under a service manager: SIGTERM to npm alone, or to its whole process
 * group, drains the service under load, and npm exits 0 only after the service has, leaving
 * no process behind. The real npm runs the real start script (the build in dist/).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import SQLite from 'better-sqlite3'
import t, { type Test } from 'tap'
import { until } from '../helpers/until.ts'
import { statFields } from '../../scripts/lib/proc-stat.ts'
import { builtServer, CHILD_ENV, streamCreates, tempDir, tryConnect } from '../helpers/process.ts'

const KEY = 'npm-start-signals-key-not-secret'
const root = new URL('../..', import.meta.url)

/** A process's parent and process group, from /proc (undefined once it is gone). */
function processStat (pid: number): { ppid: number, pgrp: number } | undefined {
  try {
    const [, ppid, pgrp] = statFields(pid)
    return { ppid: Number(ppid), pgrp: Number(pgrp) }
  } catch { return undefined }
}

/** The processes still in a process group. */
function groupMembers (pgrp: number): number[] {
  return readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number).filter((pid) => processStat(pid)?.pgrp === pgrp)
}

function alive (pid: number): boolean {
  try { process.kill(pid, 0); return true } catch (error) { return (error as NodeJS.ErrnoException).code !== 'ESRCH' }
}

async function npmStart (t: Test, database: string): Promise<{ npm: ChildProcess, output: () => string }> {
  await builtServer()
  // A process group of its own, as a service manager gives it. No rate limit and no
  // event-loop-delay shedding: on a busy test machine their 429s and 503s would only hide
  // whether the drain lost anything.
  const npm = spawn('npm', ['start'], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...CHILD_ENV,
      PORT: '0',
      DATABASE_URL: database,
      PETSTORE_API_KEYS: KEY,
      LOG_FORMAT: 'json',
      RATE_LIMIT_MAX: '0',
      MAX_EVENT_LOOP_DELAY_MS: '0'
    }
  })
  t.teardown(() => {
    // A failed test leaves nothing running: whatever is left of the group goes.
    try { process.kill(-npm.pid!, 'SIGKILL') } catch {}
  })
  let text = ''
  npm.stdout!.on('data', (chunk: Buffer) => { text += chunk })
  npm.stderr!.on('data', (chunk: Buffer) => { text += chunk })
  return { npm, output: () => text }
}

for (const target of ['npm', 'group'] as const) {
  t.test(`SIGTERM to ${target === 'npm' ? 'npm alone' : 'the process group'} drains the service, then npm exits 0`, async (t) => {
    const database = join(tempDir(t), 'petstore.db')
    const { npm, output } = await npmStart(t, database)
    const npmExit = once(npm, 'exit')
    // The log's JSON lines are written at the end of a turn of the event loop, so the line
    // for people can come first: wait for both.
    const jsonLines = () => output().split('\n').filter((line) => line.startsWith('{') && line.endsWith('}')).map((line) => JSON.parse(line))
    await until(() => / on http:\/\/127\.0\.0\.1:\d+\/v1/.test(output()) && jsonLines().length > 0, 'the service to listen and log')
    const port = Number(/ on http:\/\/127\.0\.0\.1:(\d+)\/v1/.exec(output())![1])
    const servicePid = jsonLines()[0].pid as number
    t.same(processStat(servicePid), { ppid: npm.pid, pgrp: npm.pid }, 'the service is npm\'s own child, no shell between them')

    const { outcomes, stop } = streamCreates(port, KEY)
    await until(() => outcomes.filter((outcome) => outcome.status === 201).length >= 40, 'creates under load')

    process.kill(target === 'npm' ? npm.pid! : -npm.pid!, 'SIGTERM')
    const [code, signal] = await npmExit
    const serviceGoneFirst = !alive(servicePid)
    await stop()
    t.same([code, signal], [0, null], 'npm exits 0')
    t.ok(serviceGoneFirst, 'the service had exited before npm did')
    t.same(groupMembers(npm.pid!), [], 'no process of the group is left')
    t.match(output(), `"pid":${servicePid},"hostname"`, 'the log names the service')
    t.match(output(), /"signal":"SIGTERM","msg":"shutting down"/, 'the service drained on SIGTERM')
    t.notMatch(output(), /second SIGTERM|while shutting down, exiting|killed by timeout/, 'nothing cut the drain short')

    const created = outcomes.filter((outcome) => outcome.status === 201)
    t.same(outcomes.filter((outcome) => outcome.status !== undefined && outcome.status !== 201), [], 'every answer is a 201')
    t.ok(outcomes.every((outcome) => outcome.error === undefined || ['ECONNREFUSED', 'ECONNRESET', 'socket hang up', 'EPIPE'].includes(outcome.error)),
      'failures are only refused or reset connections')
    const sqlite = new SQLite(database, { readonly: true })
    t.teardown(() => sqlite.close())
    const stored = new Set((sqlite.prepare('select name from pets').all() as Array<{ name: string }>).map((row) => row.name))
    t.same(created.filter((outcome) => !stored.has(outcome.requestId)), [], `all ${created.length} acknowledged creates are stored`)

    t.equal(await tryConnect(port, '127.0.0.1'), 'ECONNREFUSED', 'nothing listens on the port any more')
  })
}
