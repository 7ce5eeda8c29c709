/**
 * Optional services (Redis) for the tests that need a real one. On a laptop without the
 * service those tests are skipped with a message saying so; CI sets
 * PETSTORE_REQUIRE_SERVICES=1, which turns a missing service into a failure.
 */
import { connect } from 'node:net'

export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

function reachable (url: string): Promise<boolean> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve) => {
    const socket = connect(Number(port || 6379), hostname)
    const done = (ok: boolean) => { socket.destroy(); resolve(ok) }
    socket.once('connect', () => done(true))
    socket.once('error', () => done(false))
    socket.setTimeout(1000, () => done(false))
  })
}

/** A skip reason when Redis is absent and not required; false when the tests can run. */
export async function redisSkipReason (): Promise<string | false> {
  if (await reachable(REDIS_URL)) return false
  if (process.env.PETSTORE_REQUIRE_SERVICES === '1') {
    throw new Error(`Redis is required (PETSTORE_REQUIRE_SERVICES=1) but does not answer at ${REDIS_URL}`)
  }
  return `Redis does not answer at ${REDIS_URL} (set TEST_REDIS_URL); start it to run these tests`
}
