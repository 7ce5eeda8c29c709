/**
 * A start that serves no TLS loads none: Fastify's `node:https` and `node:http2` are
 * loaded when first used in the bundle (scripts/bundle.ts), and the webhooks' `node:https`
 * when an endpoint first needs it (src/features/webhooks/attempt.ts). The build is started
 * on a database in memory with a probe that, as the process exits, writes which of Node's
 * own modules it loaded.
 */
import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import t from 'tap'
import { startServer, tempDir } from '../helpers/process.ts'
import { AUTH, TEST_KEY } from '../helpers/app.ts'

const PROBE = `process.on('exit', () => {
  const builtins = process.moduleLoadList.filter((name) => name.startsWith('NativeModule ')).map((name) => name.slice(13))
  process.stderr.write('loaded: ' + builtins.join(' ') + '\\n')
})
`

t.test('a start that serves a listing loads neither TLS nor HTTP/2', async (t) => {
  const probe = join(tempDir(t), 'probe.cjs')
  writeFileSync(probe, PROBE)
  const server = await startServer(t, { DATABASE_URL: ':memory:', PETSTORE_API_KEYS: TEST_KEY }, {
    built: true, nodeArgs: ['--require', probe], unset: ['NODE_OPTIONS', 'NODE_V8_COVERAGE']
  })
  const listing = await fetch(`${server.base}/v1/pets?limit=1`, { headers: AUTH })
  t.equal(listing.status, 200)
  server.child.kill('SIGTERM')
  await once(server.child, 'exit')
  const loaded = /^loaded: (.*)$/m.exec(server.output())?.[1]?.split(' ') ?? []
  t.ok(loaded.includes('http'), 'the probe saw the modules the start loaded')
  t.strictSame(loaded.filter((name) => ['tls', 'https', 'http2', '_tls_wrap'].includes(name)), [], 'none of TLS')
})
