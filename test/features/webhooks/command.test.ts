/**
 * `npm run webhooks` in-process (src/features/webhooks/command.ts), on whichever database
 * this run tests: the command line checked before anything is done, `rotate-secrets --all`
 * over no endpoint, and its JSON. As run, with a start refused and recovered:
 * test/scripts/webhooks.test.ts.
 */
import t from 'tap'
import { build, JSON_HEADERS, TEST_SECRETS_KEY } from '../../helpers/app.ts'
import { parseNetworks } from '../../../src/config/values.ts'
import { USAGE, UsageError, webhooksCommand } from '../../../src/features/webhooks/command.ts'
import { openSecret, secretsKeyFromText } from '../../../src/features/webhooks/sealing.ts'

const KEY = { key: TEST_SECRETS_KEY }

t.test('a command line that is not the usage is refused before anything is done', async (t) => {
  for (const args of [[], ['rotate-secrets'], ['rotate-secrets', '--all', 'extra'], ['rotate-secret', '--all'], ['rotate-secrets', '--all', '--grace', '1h']]) {
    t.throws(() => webhooksCommand(args), new UsageError(), args.join(' '))
  }
  t.equal(new UsageError().message, USAGE)
})

t.test('rotate-secrets --all: no endpoint, nothing to rotate; otherwise each one\'s new secret, sealed with the key, in JSON with --json', async (t) => {
  const app = await build(t, { webhooks: { allowedNetworks: parseNetworks('127.0.0.0/8') } })
  t.equal(await webhooksCommand(['rotate-secrets', '--all'])(app.db, KEY),
    `No webhook endpoints: no secret to rotate (the key is ${secretsKeyFromText(TEST_SECRETS_KEY, 'test').id}, WEBHOOK_SECRETS_KEY).`)
  const res = await app.inject({ method: 'POST', url: '/v1/webhook-endpoints', headers: JSON_HEADERS, payload: { url: 'http://127.0.0.1:9/hooks', events: ['*'] } })
  t.equal(res.statusCode, 201)
  const endpoint = res.json()
  await app.inject({ method: 'POST', url: `/v1/webhook-endpoints/${endpoint.id}/rotate-secret`, headers: JSON_HEADERS, payload: { graceSeconds: 3600 } })

  const printed = JSON.parse(await webhooksCommand(['rotate-secrets', '--all', '--json'])(app.db, KEY))
  t.match(printed, [{ id: endpoint.id, url: 'http://127.0.0.1:9/hooks', secret: /^whsec_/ }])
  const row = await app.db.selectFrom('webhook_endpoints').selectAll().executeTakeFirstOrThrow()
  t.equal(openSecret(secretsKeyFromText(TEST_SECRETS_KEY, 'test'), row.secret), printed[0].secret, 'stored sealed with the key')
  t.match(row, { previous_secret: null, previous_secret_expires_at: null }, 'the grace of the rotation before ends too')
})
