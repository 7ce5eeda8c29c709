/** The start: from `npm start` to the first 200 of `GET /v1/pets`, on one core. */
import { spawn } from 'node:child_process'
import { headers, SERVER_CORES, SERVICE_ENV } from './run.ts'

export const START_MEASURE = '`npm start` to the first 200'

/** The seconds from `npm start` (in the project at `cwd`, this one by default) on the database `file` to its first 200. */
export async function startTime (file: string, cwd?: string): Promise<number> {
  const began = performance.now()
  const port = 20_000 + Math.floor(Math.random() * 20_000)
  const command = SERVER_CORES === undefined ? ['npm', 'start'] : ['taskset', '-c', SERVER_CORES, 'npm', 'start']
  const child = spawn(command[0]!, command.slice(1), {
    env: { ...process.env, ...SERVICE_ENV, DATABASE_URL: file, PORT: String(port), LOG_FORMAT: 'json' }, stdio: 'ignore', detached: true, cwd
  })
  try {
    for (;;) {
      const answer = await fetch(`http://127.0.0.1:${port}/v1/pets?limit=20`, { headers }).catch(() => undefined)
      if (answer?.status === 200) return (performance.now() - began) / 1000
      if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`)
      await new Promise((resolve) => setTimeout(resolve, 10))
    }
  } finally {
    process.kill(-child.pid!, 'SIGINT')
    await new Promise((resolve) => child.once('exit', resolve))
  }
}
