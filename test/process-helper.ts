/**
 * Runs src/server.ts as a real process, as `npm start` does, for the tests that need a
 * real socket, signals or a crash.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { request, type Agent } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'tap'

const root = new URL('..', import.meta.url)

export interface ServerProcess {
  child: ChildProcess
  /** `http://127.0.0.1:PORT` */
  base: string
  port: number
  output: () => string
}

/** Starts the server (PORT=0) and resolves once it prints its address. */
export async function startServer (env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root, env: { ...process.env, PORT: '0', LOG_FORMAT: 'json', ...env }, stdio: ['ignore', 'pipe', 'pipe']
  })
  let output = ''
  child.stdout!.on('data', (chunk) => { output += chunk })
  child.stderr!.on('data', (chunk) => { output += chunk })
  const base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 30_000)
    child.stdout!.on('data', () => {
      const match = /Petstore API on (http:\/\/[^/\s]+)\/v1/.exec(output)
      if (match !== null) { clearTimeout(timer); resolve(match[1]!) }
    })
    child.once('exit', () => { clearTimeout(timer); reject(new Error(`server exited:\n${output}`)) })
  })
  return { child, base, port: Number(new URL(base).port), output: () => output }
}

/** A temporary folder for one test, removed afterwards. */
export function tempDir (t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'petstore-test-'))
  t.teardown(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}

export interface Outcome { requestId: string, status?: number, body?: string, error?: string }

/** POSTs a pet named `requestId` (also sent as X-Request-Id); never rejects. */
export function postPet (port: number, agent: Agent, key: string, requestId: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const req = request({
      port, host: '127.0.0.1', method: 'POST', path: '/v1/pets', agent,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-request-id': requestId }
    }, (res) => {
      let text = ''
      res.on('data', (chunk) => { text += chunk })
      res.on('end', () => resolve({ requestId, status: res.statusCode, body: text }))
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ requestId, error: error.code ?? error.message }))
    })
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ requestId, error: error.code ?? error.message }))
    req.end(JSON.stringify({ name: requestId, categoryId: 1 }))
  })
}
