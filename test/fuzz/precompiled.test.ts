/**
 * The validators and serializers the build writes as code (src/contract/precompiled.ts),
 * against those compiled at start: the same requests, valid and with one thing changed, of
 * every operation, sent to the service built each way, get the same answers. The code is
 * recorded here as the build records it, from the service built with the same settings.
 */
import fc from 'fast-check'
import t, { type Test } from 'tap'
import { apiDocument } from '../../src/contract/document.ts'
import * as precompiledModule from '../../src/contract/precompiled.ts'
import type * as Harness from './harness.ts'
import type * as Config from '../../src/config/config.ts'
import { makeApp, numRuns, seed, sendRequest, timeoutMs } from './harness.ts'
import { mutatedRequest, validRequest } from './requests.ts'
import { runModuleCode } from '../helpers/module-code.ts'

t.setTimeout(timeoutMs)

/** Each recorded module as the bundle holds it: run when asked for, and counted. */
function precompiledFrom (recorded: ReadonlyMap<string, string>) {
  const used = new Set<string>()
  const map = new Map([...recorded].map(([key, code]) => [key, () => {
    used.add(key)
    return runModuleCode(code)
  }]))
  return { map, used }
}

/** A module of the sources, loaded afresh with the recorded code in place of src/contract/precompiled-code.ts. */
const withPrecompiled = <T>(t: Test, path: string, map: ReadonlyMap<string, () => unknown>) =>
  t.mockImport<T>(path, { '../../src/contract/precompiled-code.ts': { PRECOMPILED: map } })

/** An answer without what differs between two services by time or chance: timestamps, event ids, generated secrets. */
const comparable = (body: string) => body
  .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')
  .replace(/"evt_[\w-]+"/g, '"<event>"')
  .replace(/"secret":"[^"]*"/g, '"secret":"<secret>"')

// A feed read waits for nothing here (test/fuzz/operations.test.ts says why).
const NO_WAIT = { parameters: { wait: fc.constantFrom(undefined, 0) } }

const { recordPrecompiled } = precompiledModule

t.test('the service with the code the build writes answers every request as the one that compiles it', async (t) => {
  const recorded = recordPrecompiled()
  const compiled = await makeApp(t)
  // Fastify compiles a route's validators and serializers once ready.
  await compiled.ready()
  t.ok(recorded.size >= 10, `${recorded.size} validators and serializers recorded`)
  const { map, used } = precompiledFrom(recorded)
  const harness = await withPrecompiled<typeof Harness>(t, './harness.ts', map)
  const written = await harness.makeApp(t)
  await written.ready()
  t.equal(used.size, recorded.size, 'every one recorded is taken from the code written')

  const runs = Math.max(20, Math.floor(numRuns / 10))
  let compared = 0
  for (const operationId of apiDocument.operations.keys()) {
    const requests = [
      ...fc.sample(validRequest(apiDocument, operationId, NO_WAIT), { seed, numRuns: runs }),
      ...fc.sample(mutatedRequest(apiDocument, operationId, NO_WAIT), { seed, numRuns: runs })
    ]
    for (const request of requests) {
      const [one, other] = [await sendRequest(compiled, request), await sendRequest(written, request)]
      if (one.statusCode !== other.statusCode || comparable(one.body) !== comparable(other.body)) {
        t.fail(`${request.method} ${request.url}: ${one.statusCode} ${one.body} against ${other.statusCode} ${other.body}`)
        return
      }
      compared++
    }
  }
  t.pass(`${compared} requests answered alike`)
})

t.test('the environment is read alike by its validator written as code', async (t) => {
  const recorded = recordPrecompiled()
  // Afresh, so that its validator is compiled (and recorded) now, whatever ran before.
  const compiled = await t.mockImport<typeof Config>('../../src/config/config.ts')
  const environments: Array<Record<string, string>> = [
    {}, { PORT: '8080', LOG_LEVEL: 'debug', UNKNOWN: 'dropped' }, { PORT: 'eighty' }, { PORT: '70000', LOG_LEVEL: 'loud' }, { BODY_LIMIT: '0' }
  ]
  // As the server reads it: its validator the build's code when there is one.
  const read = (config: typeof Config, precompiled: Config.Precompiled, env: Record<string, string>) => {
    try {
      return config.loadConfig({ PETSTORE_API_KEYS: 'config-test-key-not-a-secret', ...env }, precompiled)
    } catch (error) {
      return (error as Error).message
    }
  }
  const expected = environments.map((env) => read(compiled, precompiledModule.precompiled, env))
  t.equal(recorded.size, 1, 'the one validator recorded')
  const { map, used } = precompiledFrom(recorded)
  const written = await withPrecompiled<typeof precompiledModule>(t, '../../src/contract/precompiled.ts', map)
  const config = await t.mockImport<typeof Config>('../../src/config/config.ts')
  t.strictSame(environments.map((env) => read(config, written.precompiled, env)), expected)
  t.equal(used.size, 1, 'taken from the code written')
  t.match(expected[2], /PORT must be integer/, 'a refusal among them')
})
