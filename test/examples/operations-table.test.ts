/**
 * The table of docs/api/README.md#every-operation, as a reader runs it: its curl lines top to
 * bottom, against a new service that lets webhooks reach this machine
 * (WEBHOOK_ALLOWED_NETWORKS=127.0.0.0/8), each answered with a 2xx, one line per operation of
 * the document. Only what the guide says stands for something is filled in: `…` (the
 * address), `KEY`, and `evt_…` (an event's id, from the `listEvents` line); the endpoint's
 * URL, the guide's receiver on port 8080, is this test's receiver instead.
 */
import { execFile } from 'node:child_process'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import t from 'tap'
import { apiDocument } from '../../src/contract/document.ts'
import { parseNetworks } from '../../src/config/values.ts'
import { build, TEST_KEY } from '../helpers/app.ts'
import { markdown, section } from '../helpers/markdown.ts'
import { skipWithout } from '../helpers/process.ts'
import { startReceiver } from '../helpers/receiver.ts'

const run = promisify(execFile)

/** A row of the table: the operation, then its curl line and its client call, each code. */
const ROW = /^\| `(\w+)`[^|]*\| `(curl [^`]+)` \| `[^`]+` \|$/

t.test('the curl lines of "Every operation", run in order, each a 2xx', { skip: skipWithout(['bash', 'curl'], 'run the curl lines of docs/api/README.md') }, async (t) => {
  const rows = section(markdown('docs/api/README.md'), 'Every operation').split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const match = ROW.exec(line)
      if (match === null) throw new Error(`not a row of an operation, its curl line and its client call: ${line}`)
      return { operationId: match[1]!, curl: match[2]! }
    })
  t.strictSame(rows.map(({ operationId }) => operationId).sort(), [...apiDocument.operations.values()].map(({ operationId }) => operationId).sort(),
    'one row for each operation')

  const app = await build(t, { webhooks: { allowedNetworks: parseNetworks('127.0.0.0/8') } })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  const receiver = await startReceiver(t)
  let eventId: string | undefined
  for (const { operationId, curl } of rows) {
    if (curl.includes('evt_…') && eventId === undefined) throw new Error(`${operationId} names an event before listEvents`)
    const line = curl.replaceAll('evt_…', eventId!).replaceAll('…', address).replaceAll('http://127.0.0.1:8080/hooks', receiver.url)
    const { stdout } = await run('bash', ['-c', `${line} -sS -w '\\n%{http_code}'`], { env: { ...process.env, KEY: TEST_KEY } })
    const status = stdout.slice(stdout.lastIndexOf('\n') + 1)
    const body = stdout.slice(0, stdout.lastIndexOf('\n'))
    t.match(status, /^2\d\d$/, `${operationId}: ${status} ${body}`)
    if (operationId === 'listEvents') eventId = (JSON.parse(body) as Array<{ id: string }>)[0]?.id
  }
})
