/**
 * The webhook receiver the guides show (docs/api/events-and-webhooks.md, client/README.md),
 * run exactly as written, as a process of its own, against the service's own signed
 * deliveries: it answers 204 to each, 400 to one not signed with its secret, and when its
 * `handle` throws it logs the error and answers the next delivery.
 */
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import t from 'tap'
import { parseNetworks } from '../../src/config/values.ts'
import { webhookHeaders, newWebhookSecret } from '../../src/features/webhooks/signature.ts'
import { consumerProject, linkClient } from '../../test/helpers/consumer.ts'
import { codeBlock } from '../../test/helpers/markdown.ts'
import { CHILD_ENV, tempDir, tryConnect } from '../../test/helpers/process.ts'
import { until } from '../../test/helpers/until.ts'
import { clientOf, collect, listening } from './server.ts'

/** The `handle.mjs` the receiver imports: it fails on a pet named Boom, and says what it handled. */
const HANDLE = `export async function handle (event) {
  if (event.data.name === 'Boom') throw new Error('no room for Boom')
  console.log(\`handled \${event.type} \${event.data.name}\`)
}
`

/** A port free a moment ago, for the receiver's PORT. */
async function freePort (): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

t.test('both guides show the same receiver', async (t) => {
  const guide = codeBlock('docs/api/events-and-webhooks.md', 'js', 'createServer(')
  t.equal(codeBlock('client/README.md', 'js', 'createServer(').code, guide.code)
})

t.test("the guides' receiver answers each delivery, and outlives a handler that throws", async (t) => {
  // A project that installed petstore-client (this repository's build of it).
  const project = consumerProject(tempDir(t))
  linkClient(project)
  writeFileSync(join(project, 'receiver.mjs'), codeBlock('docs/api/events-and-webhooks.md', 'js', 'createServer(').code)
  writeFileSync(join(project, 'handle.mjs'), HANDLE)

  const { baseUrl } = await listening(t, { webhooks: { allowedNetworks: parseNetworks('127.0.0.0/8'), pollIntervalMs: 20 } })
  const api = clientOf(baseUrl)
  const port = await freePort()
  const endpoint = await api.createWebhookEndpoint({ url: `http://127.0.0.1:${port}/hooks`, events: ['pet.created'] })

  const receiver = spawn(process.execPath, ['receiver.mjs'], {
    cwd: project, env: { ...CHILD_ENV, PORT: String(port), WEBHOOK_SECRET: endpoint.secret }
  })
  let stdout = ''
  let stderr = ''
  receiver.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk })
  receiver.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk })
  t.teardown(async () => {
    if (receiver.exitCode !== null || receiver.signalCode !== null) return
    receiver.kill()
    await once(receiver, 'exit')
  })
  await until(async () => await tryConnect(port, '127.0.0.1') === 'connected', 'the receiver listening')

  const body = '{"id":"evt_forged","type":"pet.created"}'
  const forged = await fetch(`http://127.0.0.1:${port}/hooks`, {
    method: 'POST', body, headers: { ...webhookHeaders([newWebhookSecret()], 'evt_forged', new Date(), body), 'content-type': 'application/json' }
  })
  t.equal(forged.status, 400, 'a request signed with another secret')

  await api.createPet({ name: 'Rex', categoryId: 1 })
  await until(() => stdout.includes('handled pet.created Rex\n'), "Rex's event handled")
  await api.createPet({ name: 'Boom', categoryId: 1 })
  await until(() => stderr.includes('no room for Boom'), "Boom's failure logged")
  t.match(stderr, /^event evt_\S+ \(pet\.created\) was not handled: Error: no room for Boom\n/)
  await api.createPet({ name: 'Max', categoryId: 1 })
  await until(() => stdout.includes('handled pet.created Max\n'), "Max's event handled, after Boom's failure")

  t.equal(stdout, 'handled pet.created Rex\nhandled pet.created Max\n')
  t.equal(receiver.exitCode, null, 'the receiver still runs')
  const attempts = await collect(api.listWebhookDeliveries(endpoint.id))
  t.strictSame(attempts.map(({ outcome, responseStatus }) => ({ outcome, responseStatus })), Array(3).fill({ outcome: 'succeeded', responseStatus: 204 }),
    'every delivery answered 204, the one whose handler threw included')
})
