import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import t from 'tap'
import { buildApp } from '../../src/app.ts'
import { tempDir } from '../process-helper.ts'

const run = promisify(execFile)
const root = new URL('../..', import.meta.url)

function keys (databaseUrl: string, ...args: string[]) {
  return run(process.execPath, ['--import', 'tsx', 'scripts/keys.ts', ...args], { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl } })
}

async function failure (databaseUrl: string, ...args: string[]) {
  return keys(databaseUrl, ...args).then(() => undefined, (error: { code: number, stderr: string }) => error)
}

t.test('create prints a key once, list never shows it, revoke stops it on a running service within a second', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  const created = await keys(url, 'create', '--name', 'billing')
  const key = /\n {2}(pst_[A-Za-z0-9_-]{43})\n/.exec(created.stdout)?.[1]
  t.ok(key, 'create prints the new key')
  t.match(created.stdout, /^Created key "billing" \(id 1\)\. It is shown this once; store it now:/)

  const app = await buildApp({ database: { url } })
  t.teardown(() => app.close())
  const auth = { authorization: `Bearer ${key!}` }
  t.equal((await app.inject({ url: '/v1/pets', headers: auth })).statusCode, 200, 'the key works')

  // Give the service its once-a-second sync to record the use.
  await new Promise((resolve) => setTimeout(resolve, 1200))
  const listed = await keys(url, 'list')
  const lines = listed.stdout.trim().split('\n')
  t.match(lines[0], /^ID\s+NAME\s+PREFIX\s+CREATED\s+LAST USED\s+REVOKED$/)
  t.match(lines[1], new RegExp(`^1\\s+billing\\s+${key!.slice(0, 10)}…\\s+\\d{4}-\\d\\d-\\d\\dT\\S+Z\\s+\\d{4}-\\d\\d-\\d\\dT\\S+Z\\s+-$`))
  t.notMatch(listed.stdout, key!.slice(10), 'the key itself is never listed')

  const revoked = await keys(url, 'revoke', 'billing')
  t.equal(revoked.stdout, 'Revoked key "billing" (id 1).\n')
  const revokedAt = Date.now()
  let status = 200
  while (status === 200 && Date.now() - revokedAt < 3000) {
    status = (await app.inject({ url: '/v1/pets', headers: auth })).statusCode
    if (status === 200) await new Promise((resolve) => setTimeout(resolve, 50))
  }
  t.equal(status, 401, 'the revoked key is refused')
  t.ok(Date.now() - revokedAt <= 1500, `within a second or so (${Date.now() - revokedAt} ms)`)
})

t.test('revoke by id, and the errors', async (t) => {
  const url = join(tempDir(t), 'petstore.db')
  await keys(url, 'create', '--name', 'first')
  const duplicate = await failure(url, 'create', '--name', 'first')
  t.equal(duplicate?.code, 1)
  t.equal(duplicate?.stderr, 'keys: an active key named "first" already exists\n')
  t.equal((await keys(url, 'revoke', '1')).stdout, 'Revoked key "first" (id 1).\n')
  const again = await failure(url, 'revoke', '1')
  t.equal(again?.code, 1)
  t.equal(again?.stderr, 'keys: No active key with the id or name "1"\n')
  t.match((await keys(url, 'create', '--name', 'first')).stdout, /\(id 2\)/, 'a revoked name can be used again')
  for (const args of [[], ['create'], ['create', '--name', ' '], ['revoke'], ['list', 'extra'], ['rotate']]) {
    const usage = await failure(url, ...args)
    t.equal(usage?.code, 2, args.join(' '))
    t.equal(usage?.stderr, 'usage: npm run keys -- create --name NAME | list | revoke NAME|ID\n', args.join(' '))
  }
})
