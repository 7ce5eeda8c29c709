/**
 * Runs src/server.ts as a real process, as `npm start` does, for the tests that need a
 * real socket, signals or a crash.
 */
import { request, type Agent } from 'node:http'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Test } from 'tap'
import { spawnServer, type ServerProcess } from '../scripts/lib/spawn-server.ts'

export type { ServerProcess }

/** Starts src/server.ts, as `npm start` does, on a free port. */
export function startServer (env: Record<string, string>): Promise<ServerProcess> {
  return spawnServer('src/server.ts', env)
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
      port,
      host: '127.0.0.1',
      method: 'POST',
      path: '/v1/pets',
      agent,
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
