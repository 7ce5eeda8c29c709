/**
 * The log destination (src/config/log-destination.ts): a turn's lines written together
 * once the turn is done, none lost when the process exits, and a reader gone ends the
 * logging, not the process.
 */
import { spawn } from 'node:child_process'
import { openSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { TurnBatchedDestination } from '../../src/config/log-destination.ts'
import { tempDir } from '../helpers/process.ts'

const root = new URL('../..', import.meta.url)
const turn = () => new Promise((resolve) => setImmediate(resolve))

/** Runs `code` (a module that has `TurnBatchedDestination` imported) in a process of its own. */
function run (code: string, options: { closeOutput?: boolean } = {}): Promise<{ code: number | null, stdout: string, stderr: string }> {
  const source = `import { TurnBatchedDestination } from './src/config/log-destination.ts'\n${code}`
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', source], { cwd: root })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk })
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk })
  // The reader goes away first; only then is the process told to write.
  if (options.closeOutput === true) child.stdout.destroy()
  child.stdin.end()
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

t.test('the lines of one turn are written together, in order, once the turn is done', async (t) => {
  const file = join(tempDir(t), 'log')
  const destination = new TurnBatchedDestination(openSync(file, 'w'))
  t.equal(destination.write('{"n":1}\n'), true)
  destination.write('{"n":2}\n')
  t.equal(readFileSync(file, 'utf8'), '', 'nothing written during the turn')
  await turn()
  t.equal(readFileSync(file, 'utf8'), '{"n":1}\n{"n":2}\n')
  destination.write('{"n":3}\n')
  await turn()
  t.equal(readFileSync(file, 'utf8'), '{"n":1}\n{"n":2}\n{"n":3}\n', 'the next turn\'s after them')
  destination.write('{"n":4}\n')
  await new Promise<void>((resolve) => destination.flush(() => resolve()))
  t.equal(readFileSync(file, 'utf8').split('\n').length, 5, 'flush writes at once')
})

t.test('lines still waiting are written when the process exits, however it ends', async (t) => {
  const exit = await run("const log = new TurnBatchedDestination(1)\nlog.write('one\\n')\nlog.write('two\\n')\nprocess.exit(3)")
  t.same(exit, { code: 3, stdout: 'one\ntwo\n', stderr: '' }, 'process.exit')
  const thrown = await run("const log = new TurnBatchedDestination(1)\nlog.write('last words\\n')\nthrow new Error('boom')")
  t.equal(thrown.code, 1)
  t.equal(thrown.stdout, 'last words\n', 'an uncaught error')
  t.match(thrown.stderr, 'boom')
})

t.test('a log reader gone ends the logging, not the process', async (t) => {
  const code = `const log = new TurnBatchedDestination(1)
process.stdin.resume()
process.stdin.on('end', async () => {
  for (let i = 0; i < 20; i++) {
    log.write('a line nobody reads\\n'.repeat(1000))
    await new Promise((resolve) => setImmediate(resolve))
  }
  console.error('still running')
})`
  const result = await run(code, { closeOutput: true })
  t.equal(result.code, 0)
  t.equal(result.stderr, 'still running\n')
})
