/**
 * The keys command in the process, on whichever database this run tests: what each
 * command line means, what it refuses before touching the database, and what it prints.
 * test/scripts/keys.test.ts runs the same through `npm run keys`, exit codes included.
 */
import t from 'tap'
import { keysCommand, USAGE, UsageError } from '../../../src/features/api-keys/command.ts'
import { DurationError, parseDuration } from '../../../src/features/api-keys/durations.ts'
import { build } from '../../helpers/app.ts'

const EVERY = ['pets:read', 'pets:write', 'orders:read', 'orders:write']
const NOW = new Date('2026-11-24T10:00:00.000Z')
const command = (...args: string[]) => keysCommand(args, EVERY, NOW)

/** What `run` throws. */
function thrown (run: () => unknown): unknown {
  try { run() } catch (error) { return error }
  return undefined
}

t.test('durations: whole minutes, hours or days, and 0 only where a grace allows it', async (t) => {
  t.equal(parseDuration('--expires-in', '45m'), 45 * 60_000)
  t.equal(parseDuration('--expires-in', '12h'), 12 * 3_600_000)
  t.equal(parseDuration('--expires-in', '30d'), 30 * 86_400_000)
  t.equal(parseDuration('--expires-in', '36500d'), 36_500 * 86_400_000)
  t.equal(parseDuration('--grace', '0', { zero: true }), 0)
  for (const text of ['0', '0m', '30', '1w', '1.5h', '-1h', ' 1h', '36501d', '99999999999d', '']) {
    t.ok(thrown(() => parseDuration('--expires-in', text)) instanceof DurationError, JSON.stringify(text))
  }
  t.throws(() => parseDuration('--grace', '1w', { zero: true }),
    { message: '--grace "1w" is not a duration: a whole number of minutes, hours or days up to 36500d, as in 45m, 12h or 30d, or 0' })
})

t.test('command lines that are not a usage are refused with it, before anything runs', async (t) => {
  for (const args of [[], ['nope'], ['create'], ['create', 'x', '--name', 'y'], ['list', 'extra'], ['list', '--name', 'x'],
    ['revoke'], ['revoke', 'a', '--id', '1'], ['revoke', '--id', 'abc'], ['rotate', '--grace', '1h'], ['create', '--name', 'x', '--bogus'],
    ['create', '--name', 'x', '--json=yes'], ['create', '--name', ' '], ['revoke', 'x', '--name', 'y'], ['rotate'], ['list', '--grace', '1h']]) {
    const error = thrown(() => command(...args))
    t.ok(error instanceof UsageError, args.join(' '))
    t.equal((error as Error).message, USAGE)
  }
  t.throws(() => command('create', '--name', 'x', '--scopes', 'pets:read,pets:delete'),
    { message: 'unknown scope "pets:delete": the scopes are pets:read, pets:write, orders:read, orders:write (--scopes takes one or more, comma-separated)' })
  t.throws(() => command('create', '--name', 'tab\there'), { message: 'a key name is 1 to 100 characters, with no control or invisible formatting characters' })
  t.ok(thrown(() => command('create', '--name', 'x', '--expires-in', '1y')) instanceof DurationError)
  const notADuration = 'is not a duration: a whole number of minutes, hours or days up to 36500d, as in 45m, 12h or 30d'
  const refusals: Array<[string[], string]> = [
    [['create', '--name', 'x', '--scopes', ''], 'unknown scope "": the scopes are pets:read, pets:write, orders:read, orders:write (--scopes takes one or more, comma-separated)'],
    [['create', '--name', 'x', '--expires-in', '30'], `--expires-in "30" ${notADuration}`],
    [['create', '--name', 'x', '--expires-in', '0'], `--expires-in "0" ${notADuration}`],
    [['create', '--name', 'x', '--expires-in', '99999d'], `--expires-in "99999d" ${notADuration}`],
    [['rotate', 'website', '--grace', '1w'], `--grace "1w" ${notADuration}, or 0`]
  ]
  for (const [args, message] of refusals) t.throws(() => command(...args), { message }, args.join(' '))
})

t.test('an option given more than once is a usage error that names it, before anything runs', async (t) => {
  for (const [option, args] of [
    ['--scopes', ['create', '--name', 'a', '--scopes', 'pets:read', '--scopes', 'orders:read']],
    ['--name', ['create', '--name=a', '--name', 'b']],
    ['--expires-in', ['create', '--name', 'a', '--expires-in', '1d', '--expires-in', '1d']],
    ['--json', ['create', '--name', 'a', '--json', '--json']],
    ['--json', ['list', '--json', '--json']],
    ['--grace', ['rotate', 'a', '--grace', '1h', '--grace', '1h']],
    ['--expires-in', ['rotate', 'a', '--expires-in', '1d', '--expires-in', '2d']],
    ['--name', ['rotate', '--name', 'a', '--name', 'a']],
    ['--id', ['rotate', '--id', '1', '--id', '1']],
    ['--name', ['revoke', '--name', 'a', '--name', 'b']],
    ['--id', ['revoke', '--id', '1', '--id', '2']]
  ] as const) {
    const error = thrown(() => command(...args))
    t.ok(error instanceof UsageError, args.join(' '))
    t.equal((error as Error | undefined)?.message, `keys: ${option} is given more than once; give each option once\n${USAGE}`, args.join(' '))
  }
})

t.test('create, list, rotate and revoke, as text and as JSON', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  const made = await command('create', '--name', 'site', '--scopes', 'orders:read, pets:read', '--expires-in', '30d')(app.db)
  t.match(made, /^Created key "site" \(id 1\), scopes pets:read, orders:read, expires 2026-12-24T10:00:00\.000Z\. It is shown this once; store it now:\n\n {2}pst_[\w-]{43}\n$/)
  const json = JSON.parse(await command('create', '--name', 'ops', '--json')(app.db)) as Record<string, unknown>
  t.match(json, { key: /^pst_/, id: 2, name: 'ops', scopes: EVERY, expiresAt: null, replacedAt: null })

  const table = (await command('list')(app.db)).split('\n')
  t.match(table[0], /^ID\s+NAME\s+PREFIX\s+SCOPES\s+CREATED\s+EXPIRES\s+LAST USED\s+REVOKED$/)
  t.match(table[1], /^1\s+site\s+pst_\S+…\s+pets:read,orders:read\s+2026-11-24T10:00:00\.000Z\s+2026-12-24T10:00:00\.000Z\s+-\s+-$/)
  t.equal(table.length, 3)

  const rotated = await command('rotate', 'site', '--grace', '0')(app.db)
  t.match(rotated, /^Rotated key "site": the old key \(id 1\) stops working now\. The new key is "site" \(id 3\), scopes pets:read, orders:read, expires 2026-12-24T10:00:00\.000Z\./, 'as long as the old one')
  const later = keysCommand(['list'], EVERY, new Date('2026-11-24T11:00:00.000Z'))
  t.match(await later(app.db), /^1\s+site\s.*2026-11-24T10:00:00\.000Z \(expired\)/m, 'an expired key is marked so')
  const again = JSON.parse(await command('rotate', '--name', 'site', '--json')(app.db)) as { replaced: { id: number, expiresAt: string } }
  t.match(again, { id: 4, replaced: { id: 3, expiresAt: '2026-11-24T11:00:00.000Z' } }, 'a grace of an hour by default')
  await t.rejects(command('rotate', 'nobody')(app.db), { message: 'no current key with the name "nobody" (revoked and already rotated keys cannot be rotated)' })

  t.equal(await command('revoke', 'site')(app.db), 'Revoked key "site" (id 1).\nRevoked key "site" (id 3).\nRevoked key "site" (id 4).')
  await t.rejects(command('revoke', '--id', '1')(app.db), { message: 'no active key with the id 1' })
  await t.rejects(command('revoke', '9')(app.db), { message: 'no active key with the id or name "9"' })
  const listed = JSON.parse(await command('list', '--json')(app.db)) as Array<{ revokedAt: string | null }>
  t.same(listed.map((key) => key.revokedAt === null), [false, true, false, false])
})

t.test('rotate keeps the old key\'s lifetime, counted from the rotation, unless --expires-in says otherwise', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  await command('create', '--name', 'site', '--expires-in', '30d')(app.db)
  const later = (...args: string[]) => keysCommand(args, EVERY, new Date('2026-11-29T10:00:00.000Z'))
  const kept = JSON.parse(await later('rotate', 'site', '--grace', '0', '--json')(app.db)) as Record<string, unknown>
  t.match(kept, { id: 2, createdAt: '2026-11-29T10:00:00.000Z', expiresAt: '2026-12-29T10:00:00.000Z' })
  t.match(await later('rotate', 'site', '--grace', '0', '--expires-in', '12h')(app.db),
    /The new key is "site" \(id 3\), scopes pets:read, pets:write, orders:read, orders:write, expires 2026-11-29T22:00:00\.000Z\./)
})

t.test('a bare target of digits is an id, a name, or refused when it is both', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  await command('create', '--name', 'first')(app.db)
  await command('create', '--name', '1')(app.db)
  await t.rejects(command('rotate', '1')(app.db), { message: '"1" is the id of one active key and the name of another; say --id 1 or --name 1' })
  t.match(await command('rotate', '--id', '1')(app.db), /^Rotated key "first"/)
  await command('create', '--name', '4242')(app.db)
  t.equal(await command('revoke', '4242')(app.db), 'Revoked key "4242" (id 4).', 'no key has the id 4242, so it is the name')
})

t.test('a :write scope shows the :read scope it includes, and the key still holds only the scopes it was given', async (t) => {
  const app = await build(t, { keySyncIntervalMs: 60_000 })
  const made = await command('create', '--name', 'writer', '--scopes', 'orders:read,pets:write')(app.db)
  t.match(made, /^Created key "writer" \(id 1\), scopes pets:write, orders:read \(includes pets:read\), no expiry\. It is shown this once/)
  const json = JSON.parse(await command('create', '--name', 'ops', '--scopes', 'orders:write,pets:write', '--json')(app.db)) as Record<string, unknown>
  t.match(json, { id: 2, scopes: ['pets:write', 'orders:write'], effectiveScopes: ['pets:read', 'pets:write', 'orders:read', 'orders:write'] })
  await command('create', '--name', 'all')(app.db)

  const table = (await command('list')(app.db)).split('\n')
  t.match(table[1], /^1\s+writer\s+pst_\S+…\s+pets:write,orders:read \(includes pets:read\)\s+2026-11-24T10:00:00\.000Z\s+-\s+-\s+-$/)
  t.match(table[2], /^2\s+ops\s+pst_\S+…\s+pets:write,orders:write \(includes pets:read,orders:read\)\s+2026-11-24T10:00:00\.000Z\s+-\s+-\s+-$/)
  t.match(table[3], /^3\s+all\s+pst_\S+…\s+pets:read,pets:write,orders:read,orders:write\s+2026-11-24T10:00:00\.000Z\s+-\s+-\s+-$/, 'nothing to add when it holds them')
  const listed = JSON.parse(await command('list', '--json')(app.db)) as Array<{ scopes: string[], effectiveScopes: string[] }>
  t.same(listed.map(({ scopes, effectiveScopes }) => ({ scopes, effectiveScopes })), [
    { scopes: ['pets:write', 'orders:read'], effectiveScopes: ['pets:read', 'pets:write', 'orders:read'] },
    { scopes: ['pets:write', 'orders:write'], effectiveScopes: EVERY },
    { scopes: EVERY, effectiveScopes: EVERY }
  ])
  const stored = await app.db.selectFrom('api_keys').select('scopes').orderBy('id').execute()
  t.same(stored.map((row) => row.scopes), ['pets:write orders:read', 'pets:write orders:write', 'pets:read pets:write orders:read orders:write'], 'what is stored is what was given')

  const rotated = JSON.parse(await command('rotate', 'writer', '--json')(app.db)) as Record<string, unknown>
  t.match(rotated, { id: 4, scopes: ['pets:write', 'orders:read'], effectiveScopes: ['pets:read', 'pets:write', 'orders:read'], replaced: { id: 1, effectiveScopes: ['pets:read', 'pets:write', 'orders:read'] } })
  t.match(await command('rotate', 'ops', '--grace', '0')(app.db), /The new key is "ops" \(id 5\), scopes pets:write, orders:write \(includes pets:read, orders:read\), no expiry\./)
})
