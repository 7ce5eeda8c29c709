/**
 * The real entry point, as `npm start` runs it (the build in dist/): first-run key,
 * listening, shutdown.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { connect, createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { until } from '../helpers/until.ts'
import { builtServer, CHILD_ENV, startServer, tempDir, tryConnect } from '../helpers/process.ts'

const root = new URL('../..', import.meta.url)

t.test('npm start makes a first key, serves with it, logs no secret and stops cleanly', async (t) => {
  const dir = tempDir(t)
  const env = { DATABASE_URL: join(dir, 'petstore.db'), LOG_LEVEL: 'trace' }

  // The build, as `npm start` runs it. No terminal here, as in a container: the key goes
  // to a private file beside the database.
  const first = await startServer(t, env, { built: true })
  const file = join(dir, 'first-run-key.txt')
  await until(() => existsSync(file) && first.output().includes('first-run-key.txt'), 'the first-run key file')
  t.equal(statSync(file).mode & 0o777, 0o600, 'only its owner can read it')
  const saved = readFileSync(file, 'utf8')
  const key = /Bearer (pst_[A-Za-z0-9_-]{43})/.exec(saved)?.[1]
  t.ok(key, 'the file holds the key with a curl line')
  t.match(saved, `curl -H 'Authorization: Bearer ${key!}' ${first.base}/v1/pets`)
  const notice = first.output().split('\n').filter((line) => line.includes('first-run-key.txt')).map((line) => JSON.parse(line))
  t.match(notice, [{ level: 40, file, msg: /^No API key was configured, so one was made\. It is in .*first-run-key\.txt, readable by this user only/ }], 'the log says where')
  const created = await fetch(`${first.base}/v1/pets`, {
    method: 'POST', headers: { authorization: `Bearer ${key!}`, 'content-type': 'application/json' }, body: '{"name":"Rex","categoryId":1}'
  })
  t.equal(created.status, 201)
  const refused = await fetch(`${first.base}/v1/pets`, { headers: { authorization: 'Bearer pst_wrong-key-for-the-log-check' } })
  t.equal(refused.status, 401)
  first.child.kill('SIGTERM')
  const [code] = await once(first.child, 'exit')
  t.equal(code, 0, 'SIGTERM ends the process with 0')
  t.notMatch(first.output(), key!, 'the key never enters the output, which is the log stream here')
  t.notMatch(first.output(), key!.slice(10), 'nor any part of its secret')
  t.notMatch(first.output(), 'pst_wrong-key-for-the-log-check', 'a presented token is never logged')

  rmSync(file)
  const second = await startServer(t, env, { built: true })
  t.notMatch(second.output(), /pst_|first-run-key/, 'the next start makes no key')
  t.notOk(existsSync(file))
  const listed = await fetch(`${second.base}/v1/pets`, { headers: { authorization: `Bearer ${key!}` } })
  t.equal(await listed.text(), '[{"id":1,"name":"Rex","categoryId":1}]', 'data and key survive the restart')
  second.child.kill('SIGINT')
  t.equal((await once(second.child, 'exit'))[0], 0)
})

t.test('npm start with LOG_FORMAT=pretty writes lines for people, through the transport pino runs in a worker', async (t) => {
  // pino is bundled; the transport's worker is loaded from node_modules, where pino's own files are.
  const key = 'pretty-log-test-key-not-a-secret'
  const server = await startServer(t, { LOG_FORMAT: 'pretty', PETSTORE_API_KEYS: key }, { built: true })
  const answer = await fetch(`${server.base}/v1/pets`, { headers: { authorization: `Bearer ${key}` } })
  t.equal(answer.status, 200)
  await until(() => /\] INFO: request completed$/m.test(server.output()), 'the request\'s line')
  t.notMatch(server.output(), /^\{"level"/m, 'no JSON line')
  server.child.kill('SIGTERM')
  t.equal((await once(server.child, 'exit'))[0], 0, 'SIGTERM ends it with 0')
})

t.test('with METRICS_PORT, metrics are served on their own listener, not on the API port', async (t) => {
  const server = await startServer(t, { PETSTORE_API_KEYS: 'metrics-test-key-not-a-secret-0', METRICS_PORT: '0' }, { built: true })
  await until(() => server.output().includes('"metricsUrl"'), 'the metrics address in the log')
  const { metricsUrl } = server.output().split('\n').filter((line) => line.includes('"metricsUrl"')).map((line) => JSON.parse(line))[0]
  t.not(new URL(metricsUrl).port, String(server.port))
  await fetch(`${server.base}/v1/pets`, { headers: { authorization: 'Bearer metrics-test-key-not-a-secret-0' } })
  const res = await fetch(metricsUrl)
  t.equal(res.status, 200)
  t.match(res.headers.get('content-type'), /^text\/plain; version=0\.0\.4/)
  t.match(await res.text(), /http_request_duration_seconds_count\{method="GET",operation="listPets",status_class="2xx"\} 1/)
  t.equal((await fetch(`${server.base}/metrics`)).status, 404, 'the API port has no metrics')
  t.equal((await fetch(metricsUrl.replace('/metrics', '/v1/pets'))).status, 404, 'the metrics port has nothing else')
})

t.test('the metrics listener is on METRICS_HOST, not on HOST, even when HOST is every interface', async (t) => {
  // 127.0.0.2 is a loopback address of its own on Linux: nothing else answers there.
  const server = await startServer(t, {
    PETSTORE_API_KEYS: 'metrics-test-key-not-a-secret-0', HOST: '0.0.0.0', METRICS_PORT: '0', METRICS_HOST: '127.0.0.2'
  }, { built: true })
  await until(() => server.output().includes('"metricsUrl"'), 'the metrics address in the log')
  const { metricsUrl } = server.output().split('\n').filter((line) => line.includes('"metricsUrl"')).map((line) => JSON.parse(line))[0]
  const port = Number(new URL(metricsUrl).port)
  t.equal(metricsUrl, `http://127.0.0.2:${port}/metrics`, 'the log names METRICS_HOST')
  t.equal((await fetch(metricsUrl)).status, 200, 'metrics are served there')
  t.equal(await tryConnect(port, '127.0.0.1'), 'ECONNREFUSED', 'and not on the other addresses HOST covers')
  t.equal((await fetch(`http://127.0.0.2:${server.port}/healthz`)).status, 200, 'while the API answers on every address')
})

t.test('a scrape left unfinished does not hold the shutdown', async (t) => {
  // The grace period is shorter than the headers timeout: waiting for the scrape would exit 1.
  const server = await startServer(t, {
    PETSTORE_API_KEYS: 'metrics-test-key-not-a-secret-0', METRICS_PORT: '0', SHUTDOWN_GRACE_MS: '3000'
  }, { built: true })
  await until(() => server.output().includes('"metricsUrl"'), 'the metrics address in the log')
  const { metricsUrl } = server.output().split('\n').filter((line) => line.includes('"metricsUrl"')).map((line) => JSON.parse(line))[0]
  const scrape = connect(Number(new URL(metricsUrl).port), '127.0.0.1')
  t.teardown(() => { scrape.destroy() })
  // Ended by the server, with a FIN or a reset: either way it is closed.
  scrape.on('error', () => {})
  await once(scrape, 'connect')
  scrape.write('GET /metrics HTTP/1.1\r\n')
  const closed = new Promise((resolve) => scrape.once('close', resolve))
  server.child.kill('SIGTERM')
  t.same(await once(server.child, 'exit'), [0, null], 'drained and exited 0')
  await closed
})

/** Starts the build as `npm start` does, with `env`, expecting the start to fail: its exit code and what it said on stderr. */
async function failedStart (env: Record<string, string>) {
  const start = await builtServer()
  const child = spawn(process.execPath, [...start.nodeArgs, start.script], {
    cwd: root, env: { ...CHILD_ENV, ...start.env, ...env }, stdio: ['ignore', 'pipe', 'pipe']
  })
  let stderr = ''
  child.stderr.on('data', (chunk) => { stderr += chunk })
  const [code] = await once(child, 'exit')
  return { code, stderr }
}

t.test('a bad setting stops the start with a message naming it', async (t) => {
  const { code, stderr } = await failedStart({ PORT: 'eighty' })
  t.equal(code, 1)
  t.match(stderr, /Invalid configuration: .*PORT must be integer/)
})

/** A port on 127.0.0.1 held by another listener until the test ends. */
async function heldPort (t: Test): Promise<number> {
  const holder = createServer()
  holder.listen(0, '127.0.0.1')
  await once(holder, 'listening')
  t.teardown(() => { holder.close() })
  return (holder.address() as AddressInfo).port
}

t.test('a port already in use stops the start with one line saying so, not a stack trace', async (t) => {
  const port = await heldPort(t)
  const { code, stderr } = await failedStart({ DATABASE_URL: join(tempDir(t), 'petstore.db'), HOST: '127.0.0.1', PORT: String(port) })
  t.equal(code, 1)
  t.equal(stderr, `Cannot start: port ${port} on 127.0.0.1 is already in use; stop what holds it, or set PORT to another\n`)
})

t.test('so does a metrics port already in use, naming METRICS_PORT', async (t) => {
  const port = await heldPort(t)
  const { code, stderr } = await failedStart({
    DATABASE_URL: join(tempDir(t), 'petstore.db'), PETSTORE_API_KEYS: 'metrics-test-key-not-a-secret-0', HOST: '127.0.0.1', PORT: '0', METRICS_PORT: String(port)
  })
  t.equal(code, 1)
  t.equal(stderr, `Cannot start: port ${port} on 127.0.0.1 is already in use; stop what holds it, or set METRICS_PORT to another\n`)
})

t.test('a database that cannot be opened stops the start with one line naming it', async (t) => {
  // A path under a file: its directory cannot be made.
  const file = join(tempDir(t), 'a-file')
  writeFileSync(file, '')
  const path = join(file, 'petstore.db')
  const { code, stderr } = await failedStart({ DATABASE_URL: path })
  t.equal(code, 1)
  t.equal(stderr, `Cannot start: the database ${path} could not be opened: EEXIST: file already exists, mkdir '${file}'\n`)
})
