/**
 * The requests the benchmark makes to set a run up (orders to list, an endpoint to deliver
 * to, the tag a client holds), made as a client should: a 503 with Retry-After was not
 * served, so it is sent again after that delay. A server that sheds load for a moment on a
 * busy machine does not end the whole benchmark; measured runs still count any failure.
 */
import { setTimeout as sleep } from 'node:timers/promises'

const ATTEMPTS = 5
/** A Retry-After longer than this is waited this long: the benchmark has rows to measure. */
const MAX_WAIT_MS = 5000

export async function setupFetch (url: string, init?: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt++) {
    const res = await fetch(url, init)
    // Seconds, as the service sends it; a date or nothing is not waited for.
    const retryAfter = Number(res.headers.get('retry-after') ?? Number.NaN)
    if (res.status !== 503 || !Number.isFinite(retryAfter) || attempt === ATTEMPTS) return res
    await res.arrayBuffer()
    await sleep(Math.min(retryAfter * 1000, MAX_WAIT_MS))
  }
}
