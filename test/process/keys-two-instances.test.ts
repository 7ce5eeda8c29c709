/**
 * Scoped, rotated and revoked keys as an operator meets them: `npm run keys` against the
 * database of two running services (as `npm start` runs them), on SQLite and on
 * PostgreSQL. Each change reaches both services without a restart; each refusal has its
 * full Error body and challenge.
 */
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { errorBody } from '../helpers/answers.ts'
import { runScript, startServer, tempDir } from '../helpers/process.ts'
import { createPostgresDatabase, postgresSkipReason } from '../helpers/services.ts'
import { until } from '../helpers/until.ts'

const ADMIN = 'keys-two-instances-admin-not-a-secret'
const EXPIRED = 'Bearer realm="petstore", error="invalid_token", error_description="the key has expired"'

interface Made { key: string, id: number, replaced?: { id: number } }

async function keysCommand (databaseUrl: string, ...args: string[]): Promise<Made> {
  const { stdout } = await runScript('scripts/keys.ts', [...args, '--json'], { DATABASE_URL: databaseUrl })
  return JSON.parse(stdout) as Made
}

async function revoke (databaseUrl: string, name: string): Promise<string> {
  return (await runScript('scripts/keys.ts', ['revoke', name], { DATABASE_URL: databaseUrl })).stdout
}

async function lifecycle (t: Test, databaseUrl: string) {
  // The waits below ask with refused keys many times a second: no address allowance gets in the way.
  const env = { DATABASE_URL: databaseUrl, PETSTORE_API_KEYS: ADMIN, RATE_LIMIT_MAX: '0', RATE_LIMIT_ANON_MAX: '1000000', LOG_LEVEL: 'warn' }
  // One after the other: the first migrates the database.
  const first = await startServer(t, env, { built: true })
  const second = await startServer(t, env, { built: true })
  const bases = [first.base, second.base]
  const call = (base: string, key: string, method = 'GET', body?: unknown) => fetch(`${base}/v1/pets`, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body)
  })
  /** Waits until every service answers `key` with `status`. */
  const everywhere = async (key: string, status: number, what: string) => {
    for (const base of bases) await until(async () => (await call(base, key)).status === status, `${what} on ${base}`)
  }

  const site = await keysCommand(databaseUrl, 'create', '--name', 'site', '--scopes', 'pets:read')
  await everywhere(site.key, 200, 'the new key to be accepted')
  for (const base of bases) {
    const refused = await call(base, site.key, 'POST', { name: 'Rex', categoryId: 1 })
    t.equal(refused.status, 403, `${base}: a read-only key cannot add a pet`)
    t.same(await refused.json(), errorBody('insufficient_scope', 'This API key lacks the scope pets:write, which createPet needs', 403))
    t.equal(refused.headers.get('www-authenticate'), 'Bearer realm="petstore", error="insufficient_scope", scope="pets:write"')
  }
  const listed = await (await call(first.base, ADMIN)).json()
  t.same(listed, [], 'and nothing was added')

  const rotated = await keysCommand(databaseUrl, 'rotate', 'site', '--grace', '1h')
  t.equal(rotated.replaced?.id, site.id)
  await everywhere(rotated.key, 200, 'the rotated key to be accepted')
  for (const base of bases) t.equal((await call(base, site.key)).status, 200, `${base}: the old key still works during its grace`)

  const again = await keysCommand(databaseUrl, 'rotate', 'site', '--grace', '0')
  await everywhere(rotated.key, 401, 'the key rotated with no grace to be refused')
  for (const base of bases) {
    const ended = await call(base, rotated.key)
    t.same(await ended.json(), errorBody('unauthorized', 'The API key has expired', 401))
    t.equal(ended.headers.get('www-authenticate'), EXPIRED)
    t.equal((await call(base, again.key)).status, 200, `${base}: the newest key works`)
  }

  t.equal(await revoke(databaseUrl, 'site'), `Revoked key "site" (id ${site.id}).\nRevoked key "site" (id ${rotated.id}).\nRevoked key "site" (id ${again.id}).\n`)
  for (const key of [site.key, again.key]) await everywhere(key, 401, 'every key of the name to be refused')
  const invalid = await call(second.base, site.key)
  t.same(await invalid.json(), errorBody('unauthorized', 'Invalid API key', 401))
}

t.test('on SQLite, two services sharing the file', async (t) => {
  await lifecycle(t, join(tempDir(t), 'petstore.db'))
})

t.test('on PostgreSQL, two services sharing the database', { skip: await postgresSkipReason() }, async (t) => {
  await lifecycle(t, await createPostgresDatabase(t))
})
