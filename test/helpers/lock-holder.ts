/**
 * Runs test/fixtures/hold-lock.mjs: another process holding a SQLite file's write lock
 * until the test releases it (or ends).
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import type { Test } from 'tap'
import { CHILD_ENV } from './process.ts'

export async function holdWriteLock (t: Test, file: string): Promise<{ release: () => Promise<void> }> {
  const child = spawn(process.execPath, [new URL('../fixtures/hold-lock.mjs', import.meta.url).pathname, file], {
    env: CHILD_ENV, stdio: ['pipe', 'pipe', 'inherit']
  })
  const exited = once(child, 'exit')
  t.teardown(() => { child.kill('SIGKILL') })
  let output = ''
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk
      if (output.includes('locked')) resolve()
    })
    child.once('exit', (code) => reject(new Error(`the lock holder exited with ${code} before locking`)))
  })
  return {
    async release () {
      child.stdin.write('release\n')
      await exited
    }
  }
}
