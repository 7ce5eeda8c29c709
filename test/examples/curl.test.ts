/**
 * examples/curl.sh against a real server: the examples a person copies from must keep
 * working. The script checks each status itself; this test runs it, checks that it called
 * every operation of the document, and that it stops when the service answers otherwise.
 */
import { execFile } from 'node:child_process'
import t from 'tap'
import { apiDocument } from '../../src/contract/document.ts'
import { skipWithout, startServer } from '../helpers/process.ts'
import { startReceiver } from '../helpers/receiver.ts'
import { until } from '../helpers/until.ts'

const KEY = 'curl-example-test-key-not-a-secret'
const script = new URL('../../examples/curl.sh', import.meta.url).pathname

interface Run { code: number | null, stdout: string, stderr: string }

function runScript (env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    execFile('bash', [script], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : (typeof error.code === 'number' ? error.code : null), stdout, stderr })
    })
  })
}

/** A line `> METHOD /v1/path...` for the operation, path parameters filled in, any query. */
function requestLine ({ method, path }: { method: string, path: string }): RegExp {
  const template = `${apiDocument.prefix}${path}`.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/?\\s]+')
  return new RegExp(`^> ${method} ${template}(\\?\\S*)?$`, 'm')
}

t.test('examples/curl.sh against a started server', { skip: skipWithout(['bash', 'curl'], 'run examples/curl.sh') }, async (t) => {
  const server = await startServer(t, { PETSTORE_API_KEYS: KEY, LOG_LEVEL: 'warn', WEBHOOK_ALLOWED_NETWORKS: '127.0.0.0/8' })
  const receiver = await startReceiver(t)

  t.test('it calls every operation and shows the common errors', async (t) => {
    const run = await runScript({ PETSTORE_URL: server.base, PETSTORE_API_KEY: KEY, WEBHOOK_URL: receiver.url })
    t.equal(run.stderr, '')
    t.equal(run.code, 0, 'every call answered with the status the script expects')
    t.match(run.stdout, /\nAll calls answered as expected\.\n$/)
    for (const operation of apiDocument.operations.values()) {
      t.match(run.stdout, requestLine(operation), `${operation.operationId} is called`)
    }
    for (const status of ['401', '400', '404', '409', '412', '304']) t.match(run.stdout, `\n< ${status}\n`, `a ${status} is shown`)
    t.match(run.stdout, '< idempotent-replayed: true\n{"id":4,"name":"Tom","categoryId":3}\n', 'the retried create is replayed')
    t.match(run.stdout, /> GET \/v1\/pets\?limit=2&status=available&cursor=\S+\n< 200\n/, 'the Link to the next page is followed')
    t.match(run.stdout, '< deprecation: @1795305600\n< sunset: Thu, 05 Dec 2030 00:00:00 GMT\n< link: </v1/pets>; rel="successor-version"\n')
    t.match(run.stdout, '{"code":"invalid_request","message":"body must NOT have additional property \'categoryID\'","status":400}')
    t.match(run.stdout, '{"code":"precondition_failed","message":"Pet 1 was not changed: its current ETag is not one If-Match names","status":412}')
    t.match(run.stdout, '{"code":"conflict","message":"Order 2 is complete (shipped) and can no longer be cancelled","status":409}')
    t.match(run.stdout, /"code":"invalid_webhook_url"/)
    await until(() => receiver.received.some(({ body }) => body.includes('"name":"Hook"')), 'the pet.created of Hook delivered to WEBHOOK_URL')
  })

  t.test('a WEBHOOK_URL the service refuses: the script says how to start it, or what to give', async (t) => {
    const run = await runScript({ PETSTORE_URL: server.base, PETSTORE_API_KEY: KEY, WEBHOOK_URL: 'http://10.0.0.8/hooks' })
    t.equal(run.code, 1)
    t.equal(run.stderr, 'FAILED: expected 201, got 400\nThe service refused WEBHOOK_URL (http://10.0.0.8/hooks): start it with ' +
      'WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8 for a receiver on this machine, or set WEBHOOK_URL to a public https receiver.\n')
  })

  t.test('it stops at the first answer it did not expect', async (t) => {
    const run = await runScript({ PETSTORE_URL: server.base, PETSTORE_API_KEY: 'not-the-key-of-this-server' })
    t.equal(run.code, 1)
    t.equal(run.stderr, 'FAILED: expected 201, got 401\n')
    t.match(run.stdout, /## createPet: 201, with the id the service assigned\n> POST \/v1\/pets\n< 401\n/)
    t.notMatch(run.stdout, '## createPet, twice more', 'nothing after the failed call')

    const unset = await runScript({ PETSTORE_URL: server.base, PETSTORE_API_KEY: '' })
    t.equal(unset.code, 1)
    t.match(unset.stderr, 'PETSTORE_API_KEY: set PETSTORE_API_KEY to an API key')
    t.equal(unset.stdout, '', 'no call is made without a key')

    const prefixed = await runScript({ PETSTORE_URL: `${server.base}/v1/`, PETSTORE_API_KEY: KEY })
    t.equal(prefixed.code, 2)
    t.equal(prefixed.stderr, `PETSTORE_URL is the service's address without /v1: ${server.base}\n`)
    t.equal(prefixed.stdout, '', 'no call is made to an address with the prefix')
  })
})
