/**
 * Behind a proxy, the client address comes from X-Forwarded-For, as far as TRUST_PROXY
 * says to believe it. A hop count or a list of proxies cannot be fooled by a client that
 * sends its own X-Forwarded-For; `true` can, and the start warns about it.
 */
import t from 'tap'
import { build } from '../../helpers/app.ts'
import { captureLog } from '../../helpers/log.ts'

const PROXY = '10.0.0.1'

/** Two key guesses from one client that claims a new address each time. */
async function guessesFromOneClient (app: Awaited<ReturnType<typeof build>>) {
  const statuses = []
  for (const spoofed of ['198.51.100.1', '198.51.100.2']) {
    const res = await app.inject({ url: '/v1/pets', remoteAddress: PROXY, headers: { 'x-forwarded-for': `${spoofed}, 203.0.113.5` } })
    statuses.push(res.statusCode)
  }
  return statuses
}

t.test('with a hop count or the proxy\'s address, a client cannot choose its address', async (t) => {
  for (const trustProxy of [1, [PROXY], ['10.0.0.0/8']]) {
    const app = await build(t, { trustProxy, rateLimit: { perKey: 100, anonymous: 1 } })
    t.same(await guessesFromOneClient(app), [401, 429], `TRUST_PROXY=${String(trustProxy)}: both guesses count for 203.0.113.5`)
  }
})

t.test('TRUST_PROXY=true believes any X-Forwarded-For, and the start warns about it', async (t) => {
  const log = captureLog()
  const app = await build(t, { trustProxy: true, rateLimit: { perKey: 100, anonymous: 1 }, logger: { level: 'warn', stream: log.stream } })
  t.same(await guessesFromOneClient(app), [401, 401], 'each spoofed address gets an allowance of its own')
  t.match(log.text(), /TRUST_PROXY=true believes any X-Forwarded-For/)
})
