/** The start: from `npm start` to the first 200 of `GET /v1/pets`, on one core. */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { headers, SERVER_CORES, SERVICE_ENV } from './run.ts'
import { freePort } from '../lib/free-port.ts'

export const START_MEASURE = '`npm start` to the first 200'

/** SIGINT to `pid`, if it is still there. */
function interrupt (pid: number): void {
  try { process.kill(pid, 'SIGINT') } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error
  }
}

/** The seconds from `npm start` (in the project at `cwd`, this one by default) on the database `file` to its first 200. */
export async function startTime (file: string, cwd?: string): Promise<number> {
  const port = await freePort()
  const began = performance.now()
  const command = SERVER_CORES === undefined ? ['npm', 'start'] : ['taskset', '-c', SERVER_CORES, 'npm', 'start']
  const child = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, ...SERVICE_ENV, DATABASE_URL: file, PORT: String(port), LOG_FORMAT: 'json' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
    cwd
  })
  let errors = ''
  child.stderr!.on('data', (chunk: Buffer) => { errors += chunk })
  const exited = once(child, 'exit')
  try {
    for (;;) {
      const answer = await fetch(`http://127.0.0.1:${port}/v1/pets?limit=20`, { headers }).catch(() => undefined)
      if (answer?.status === 200) return (performance.now() - began) / 1000
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}:\n${errors}`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  } finally {
    // The group: npm and the server it started, unless it is gone already.
    if (child.exitCode === null && child.signalCode === null) interrupt(-child.pid!)
    await exited
  }
}
