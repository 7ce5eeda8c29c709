/**
 * The real entry point, as `npm start` runs it: first-run key, listening, shutdown.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { join } from 'node:path'
import t from 'tap'
import { startServer, tempDir } from './process-helper.ts'

const root = new URL('..', import.meta.url)

t.test('npm start makes a first key, serves with it, logs no secret and stops cleanly', async (t) => {
  const env = { DATABASE_URL: join(tempDir(t), 'petstore.db'), LOG_LEVEL: 'trace' }

  const first = await startServer(env)
  const key = /Bearer (pst_[A-Za-z0-9_-]{43})/.exec(first.output())?.[1]
  t.ok(key, 'the first run prints a key with a curl line')
  t.match(first.output(), `curl -H 'Authorization: Bearer ${key!}' ${first.base}/v1/pets`)
  const created = await fetch(`${first.base}/v1/pets`, {
    method: 'POST', headers: { authorization: `Bearer ${key!}`, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}'
  })
  t.equal(created.status, 201)
  const refused = await fetch(`${first.base}/v1/pets`, { headers: { authorization: 'Bearer pst_wrong-key-for-the-log-check' } })
  t.equal(refused.status, 401)
  first.child.kill('SIGTERM')
  const [code] = await once(first.child, 'exit')
  t.equal(code, 0, 'SIGTERM ends the process with 0')
  t.equal(first.output().split(key!).length - 1, 2, 'the key appears only in the first-run message')
  t.notMatch(first.output(), 'pst_wrong-key-for-the-log-check', 'a presented token is never logged')

  const second = await startServer(env)
  t.notMatch(second.output(), /pst_/, 'the next start makes no key')
  const listed = await fetch(`${second.base}/v1/pets`, { headers: { authorization: `Bearer ${key!}` } })
  t.equal(await listed.text(), '[{"id":1,"name":"Rex","categoryId":1}]', 'data and key survive the restart')
  second.child.kill('SIGINT')
  t.equal((await once(second.child, 'exit'))[0], 0)
})

t.test('a bad setting stops the start with a message naming it', async (t) => {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: root, env: { ...process.env, PORT: 'eighty' }, stdio: ['ignore', 'pipe', 'pipe']
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => { stderr += chunk })
  const [code] = await once(child, 'exit')
  t.equal(code, 1)
  t.match(stderr, /Invalid configuration: .*PORT must be integer/)
})
