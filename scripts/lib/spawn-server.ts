/**
 * Starts a server script (src/server.ts through tsx, the built dist/server.js as
 * `npm start` runs it, or a benchmark peer) as a child process on a free port, and
 * resolves once it prints `... on http://HOST:PORT/v1`. Shared by the benchmark, the soak
 * script and the tests that need a real process.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'

export interface ServerProcess {
  child: ChildProcess
  /** `http://127.0.0.1:PORT` */
  base: string
  port: number
  /** Everything the process printed so far, stdout and stderr (until started, when `quiet`). */
  output: () => string
}

export interface SpawnOptions {
  timeoutMs?: number
  /** Run on these CPU cores only (`taskset -c`), so a load generator on others does not compete. */
  cores?: string
  /** Keep reading the output after the start but do not keep it (a benchmark's log lines). */
  quiet?: boolean
  /** Options for node itself, before the script. */
  nodeArgs?: string[]
}

const root = new URL('../..', import.meta.url)

/** What `npm start` runs: node's options, and the built server (package.json's start script). */
export function npmStart (): { nodeArgs: string[], script: string } {
  const [, ...words] = (JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).scripts.start as string).split(' ')
  return { nodeArgs: words.slice(0, -1), script: words.at(-1)! }
}
const ADDRESS = / on (http:\/\/[^/\s]+)\/v1/

export async function spawnServer (script: string, env: Record<string, string>, options: SpawnOptions = {}): Promise<ServerProcess> {
  const { timeoutMs = 30_000, cores, quiet = false, nodeArgs = [] } = options
  const node = [process.execPath, ...nodeArgs, ...(script.endsWith('.ts') ? ['--import', 'tsx'] : []), script]
  // taskset replaces itself with node, so the child's pid is the server's.
  const [command, ...args] = cores === undefined ? node : ['taskset', '-c', cores, ...node]
  const child = spawn(command!, args, {
    cwd: root, env: { ...process.env, PORT: '0', LOG_FORMAT: 'json', ...env }, stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  let started = false
  const keep = (chunk: Buffer) => { if (!started || !quiet) output += chunk }
  child.stdout!.on('data', keep)
  child.stderr!.on('data', keep)
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not start:\n${output}`)), timeoutMs)
    child.stdout!.on('data', () => {
      const match = started ? null : ADDRESS.exec(output)
      if (match !== null) { started = true; clearTimeout(timer); resolve(match[1]!) }
    })
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`${script} exited with ${code}:\n${output}`)) })
  })
  return { child, base, port: Number(new URL(base).port), output: () => output }
}
