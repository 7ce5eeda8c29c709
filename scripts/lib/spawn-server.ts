/**
 * Starts a server script (src/server.ts through tsx, the build in dist/ as `npm start`
 * runs it, or a benchmark peer) as a child process on a free port, and
 * resolves once it prints `... on http://HOST:PORT/v1`. Shared by the benchmark, the soak
 * script and the tests that need a real process.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { closeSync, openSync, readFileSync } from 'node:fs'

export interface ServerProcess {
  child: ChildProcess
  /** `http://127.0.0.1:PORT` */
  base: string
  port: number
  /** Everything the process printed so far, stdout and stderr. */
  output: () => string
}

export interface SpawnOptions {
  timeoutMs?: number
  /** Run on these CPU cores only (`taskset -c`), so a load generator on others does not compete. */
  cores?: string
  /**
   * Write the output to this file instead of a pipe that this process reads (a benchmark's
   * log lines): a load generator busy on its own core would drain a pipe late, and hold up
   * the server it measures, as no log collector of a deployment does.
   */
  logFile?: string
  /** Options for node itself, before the script. */
  nodeArgs?: string[]
  /**
   * Variables left out of the server's environment, even those a wrapper of `spawn` adds
   * back (a test runner's module hooks in NODE_OPTIONS): removed by `env -u` on its way.
   */
  unset?: string[]
}

const root = new URL('../..', import.meta.url)

/**
 * What `npm start` runs: its environment, node's options, and its script (package.json's
 * start script, `[NAME=VALUE ...] exec node OPTIONS SCRIPT`; `exec` makes the shell npm
 * starts become node, so the signals npm passes on reach the server). The script,
 * scripts/start.js, serves the build in dist/, rebuilt first when its sources changed.
 */
export function npmStart (): { env: Record<string, string>, nodeArgs: string[], script: string } {
  const start = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')).scripts.start as string
  const words = start.split(' ')
  const env: Record<string, string> = {}
  for (let word = words[0]; word !== undefined && /^[A-Z_]+=/.test(word); word = words[0]) {
    const [name, value] = words.shift()!.split('=') as [string, string]
    env[name] = value
  }
  if (words[0] === 'exec') words.shift()
  if (words.shift() !== 'node' || words.length === 0) throw new Error(`npm start is not "[NAME=VALUE ...] [exec] node [OPTIONS] SCRIPT": ${start}`)
  return { env, nodeArgs: words.slice(0, -1), script: words.at(-1)! }
}
const ADDRESS = / on (http:\/\/[^/\s]+)\/v1/

export async function spawnServer (script: string, env: Record<string, string>, options: SpawnOptions = {}): Promise<ServerProcess> {
  const { timeoutMs = 30_000, cores, logFile, nodeArgs = [], unset = [] } = options
  const node = [process.execPath, ...nodeArgs, ...(script.endsWith('.ts') ? ['--import', 'tsx'] : []), script]
  // taskset and env replace themselves with node, so the child's pid is the server's.
  const [command, ...args] = [
    ...(cores === undefined ? [] : ['taskset', '-c', cores]),
    ...(unset.length === 0 ? [] : ['env', ...unset.flatMap((name) => ['-u', name])]),
    ...node
  ]
  const log = logFile === undefined ? 'pipe' : openSync(logFile, 'w')
  const child = spawn(command!, args, {
    cwd: root, env: { ...process.env, PORT: '0', LOG_FORMAT: 'json', ...env }, stdio: ['ignore', log, log]
  })
  if (typeof log === 'number') closeSync(log)
  let piped = ''
  child.stdout?.on('data', (chunk: Buffer) => { piped += chunk })
  child.stderr?.on('data', (chunk: Buffer) => { piped += chunk })
  const output = logFile === undefined ? () => piped : () => readFileSync(logFile, 'utf8')
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => { stop(); reject(new Error(`${script} did not start:\n${output()}`)) }, timeoutMs)
    // A file has no 'data' events: it is read again until the address is in it.
    const poll = logFile === undefined ? undefined : setInterval(check, 20)
    child.stdout?.on('data', check)
    child.once('exit', exited)
    function exited (code: number | null) { stop(); reject(new Error(`${script} exited with ${code}:\n${output()}`)) }
    function stop () { clearTimeout(timer); clearInterval(poll); child.stdout?.off('data', check); child.off('exit', exited) }
    function check () {
      const match = ADDRESS.exec(output())
      if (match !== null) { stop(); resolve(match[1]!) }
    }
  })
  return { child, base, port: Number(new URL(base).port), output }
}
