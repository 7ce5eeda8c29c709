/**
 * Safe retries, as a `fetch` wrapper under openapi-fetch: a network failure, 429 and 503
 * (and a 409 `idempotency_key_in_use`, whose first request is still running) are tried
 * again, a bounded number of times, after the answer's `Retry-After` or a jittered
 * exponential backoff. Every request this client sends may be repeated: reads are safe,
 * each POST carries an `Idempotency-Key` (codegen refuses a POST without one), and a PUT, a
 * merge patch and a DELETE are idempotent (a DELETE retried after it did its work is a 404,
 * which ./client.ts counts as done).
 * @see https://www.rfc-editor.org/rfc/rfc9110#name-retry-after
 */
import { retryAfterSeconds } from './errors.ts'

export type Fetch = (request: Request) => Promise<Response>

export interface RetryOptions {
  /** Retries after the first attempt (default 3); 0 sends each request once. */
  retries?: number
  /** The first backoff delay (default 200 ms), doubled at each retry, with jitter. */
  minDelayMs?: number
  /** The longest backoff delay (default 5000 ms). */
  maxDelayMs?: number
  /**
   * The longest `Retry-After` the client waits (default 60000 ms). An answer asking for
   * longer is not retried: its PetstoreError is thrown, with `retryAfter` set.
   */
  maxRetryAfterMs?: number
  /** How to wait (default: a timer, ended early by the call's signal). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>
}

/** What one call learns from its attempts. */
export interface AttemptEvents {
  /** An attempt failed without an answer: it may or may not have reached the service. */
  onLostAnswer?: () => void
}

const DEFAULTS = { retries: 3, minDelayMs: 200, maxDelayMs: 5000, maxRetryAfterMs: 60_000, sleep } satisfies Required<RetryOptions>

function sleep (ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) { reject(signal.reason); return }
    const abort = () => { clearTimeout(timer); reject(signal.reason) }
    const timer = setTimeout(() => { signal.removeEventListener('abort', abort); resolve() }, ms)
    signal.addEventListener('abort', abort, { once: true })
  })
}

/** Equal jitter: half the exponential delay, plus a random part of the other half. */
export function backoffMs (retry: number, minDelayMs: number, maxDelayMs: number): number {
  const ceiling = Math.min(maxDelayMs, minDelayMs * 2 ** retry)
  return ceiling / 2 + Math.random() * ceiling / 2
}

async function errorCode (response: Response): Promise<unknown> {
  try {
    return (JSON.parse(await response.clone().text()) as { code?: unknown }).code
  } catch {
    return undefined
  }
}

async function retryable (request: Request, response: Response): Promise<boolean> {
  if (response.status === 429 || response.status === 503) return true
  return response.status === 409 && request.headers.has('idempotency-key') &&
    await errorCode(response) === 'idempotency_key_in_use'
}

/** `fetch` with retries; `false` sends each request once. */
export function retrying (fetch: Fetch, options: RetryOptions | false = {}): (request: Request, events?: AttemptEvents) => Promise<Response> {
  // An option given as undefined keeps its default.
  const given = Object.entries(options === false ? { retries: 0 } : options).filter(([, value]) => value !== undefined)
  const settings: Required<RetryOptions> = { ...DEFAULTS, ...Object.fromEntries(given) }
  const backoff = (retry: number) => backoffMs(retry, settings.minDelayMs, settings.maxDelayMs)

  return async function send (request, events = {}) {
    // A body can be read once: kept as bytes, so that each attempt is a fresh Request.
    const body = request.body === null ? undefined : await request.arrayBuffer()
    const attempt = () => fetch(new Request(request, { body }))
    for (let retry = 0; retry < settings.retries; retry++) {
      let response: Response
      try {
        response = await attempt()
      } catch (error) {
        if (request.signal.aborted) throw error
        events.onLostAnswer?.()
        await settings.sleep(backoff(retry), request.signal)
        continue
      }
      if (!await retryable(request, response)) return response
      const seconds = retryAfterSeconds(response.headers)
      if (seconds !== undefined && seconds * 1000 > settings.maxRetryAfterMs) return response
      await response.body?.cancel()
      await settings.sleep(seconds === undefined ? backoff(retry) : seconds * 1000, request.signal)
    }
    // The last attempt's answer, or its failure, is the call's.
    return attempt()
  }
}
