/**
 * Starts a server script (src/server.ts through tsx, the built dist/src/server.js as
 * `npm start` runs it, or a benchmark peer) as a child process on a free port, and resolves once it prints `... on http://HOST:PORT/v1`. Shared by the
 * benchmark, the soak script and the tests that need a real process.
 */
import { spawn, type ChildProcess } from 'node:child_process'

export interface ServerProcess {
  child: ChildProcess
  /** `http://127.0.0.1:PORT` */
  base: string
  port: number
  /** Everything the process printed so far, stdout and stderr. */
  output: () => string
}

const root = new URL('../..', import.meta.url)
const ADDRESS = / on (http:\/\/[^/\s]+)\/v1/

export async function spawnServer (script: string, env: Record<string, string>, timeoutMs = 30_000): Promise<ServerProcess> {
  const args = script.endsWith('.ts') ? ['--import', 'tsx', script] : [script]
  const child = spawn(process.execPath, args, {
    cwd: root, env: { ...process.env, PORT: '0', LOG_FORMAT: 'json', ...env }, stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout!.on('data', (chunk) => { output += chunk })
  child.stderr!.on('data', (chunk) => { output += chunk })
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output}`)), timeoutMs)
    child.stdout!.on('data', () => {
      const match = ADDRESS.exec(output)
      if (match !== null) { clearTimeout(timer); resolve(match[1]!) }
    })
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${script} exited with ${code}:\n${output}`)) })
  })
  return { child, base, port: Number(new URL(base).port), output: () => output }
}
