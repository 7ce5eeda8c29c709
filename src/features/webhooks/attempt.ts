/**
 * One attempt to deliver a webhook (docs/decisions.md#delivery): a `POST` of the event's
 * envelope with its signature headers, and what came of it, classified for the deliveries
 * log and the retry schedule.
 * - Success is a 2xx within the timeout, and nothing else: a redirect is not followed (a
 *   3xx fails as `redirect`), a 410 says the endpoint is gone, a 429 or 503 may say when
 *   to come back (`Retry-After`, in seconds or as a date).
 * - The answer's status decides, as soon as its headers come; nothing waits for its body.
 *   Through a pool of connections (`ConnectionPools`), at most 64 KiB of the body is read,
 *   within the attempt's timeout, to give the connection back; past either, it is closed.
 *   Without one, the connection is the attempt's own, closed at once.
 * - The address actually connected is checked again (./addresses.ts): the host is resolved
 *   here, and only an allowed address is connected, so a name that now points inside the
 *   network fails as `address_not_allowed` before any byte is sent.
 */
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http'
import type * as Https from 'node:https'
import type { LookupFunction } from 'node:net'
import { WEBHOOK_USER_AGENT } from '../../tracing/webhook-user-agent.ts'
import ipaddr from 'ipaddr.js'
import type { Network } from '../../config/values.ts'
import { hostOf, mayConnect, systemLookup, type Lookup } from './addresses.ts'

/**
 * `node:https`, loaded when an endpoint first needs it, not at start: it loads TLS, which
 * a start that serves no TLS should not pay for (the bundle makes Fastify's own load of it
 * as lazy: scripts/bundle.ts). Node loads it for us (`process.getBuiltinModule`, Node
 * 20.16 and 22.3), where a `require` of our own had to be made for it.
 */
const httpsModule = (): typeof Https => process.getBuiltinModule('node:https')

export type AttemptError =
  | 'timeout' | 'connection_refused' | 'connection_reset' | 'dns' | 'tls' | 'network'
  | 'address_not_allowed' | 'redirect' | 'http_status'
  /** Not an attempt's: the dispatcher could not open the endpoint's secret, and sent nothing. */
  | 'secret_unreadable'

export interface AttemptResult {
  /** A 2xx within the timeout. */
  succeeded: boolean
  /** The receiver's status, where it answered. */
  status?: number
  /** Why it failed, where it did. */
  error?: AttemptError
  /** A 429 or 503's `Retry-After`, in milliseconds from now. */
  retryAfterMs?: number
  durationMs: number
}

export interface AttemptOptions {
  timeoutMs: number
  allowed: readonly Network[]
  lookup?: Lookup
  now?: () => number
  /** Ends the attempt at once (the service stopping): it fails as `network`. */
  signal?: AbortSignal
  /** The endpoint's kept connections (`ConnectionPools.of`); none: a connection of its own. */
  pools?: ConnectionPool
}

/** At most this much of an answer is read, to give its connection back to its pool. */
const MAX_ANSWER_BYTES = 64 * 1024

/** One endpoint's kept connections: the agent for its URL at an address. */
export interface ConnectionPool {
  for: (url: URL, address: string) => HttpAgent
}

/**
 * Keep-alive connections of each endpoint to its origin (scheme, host and port) at each of
 * its addresses, at most `perEndpoint` of them: most deliveries then cost no connection of
 * their own. Kept per endpoint, not per origin, so that an endpoint hanging on a host never
 * holds the connections of another on the same host. The host is resolved again at every
 * attempt, and only a connection to an allowed address it resolves to now is used, so a
 * name that now points inside the network gets nothing, kept connection or not. One idle
 * for `idleMs` is closed, and an agent left without connections is dropped once there are
 * more than `maxAgents`, so endpoints removed leave nothing behind.
 */
export class ConnectionPools {
  readonly #agents = new Map<string, HttpAgent>()

  constructor (private readonly perEndpoint: number, private readonly maxAgents = 256, private readonly idleMs = 30_000) {}

  of (endpoint: string): ConnectionPool {
    return { for: (url, address) => this.#agent(`${endpoint} ${url.origin} ${address}`, url) }
  }

  #agent (key: string, url: URL): HttpAgent {
    let agent = this.#agents.get(key)
    if (agent === undefined) {
      if (this.#agents.size >= this.maxAgents) this.#dropUnused()
      const options = { keepAlive: true, maxSockets: this.perEndpoint, maxFreeSockets: this.perEndpoint, timeout: this.idleMs, scheduling: 'lifo' as const }
      agent = url.protocol === 'https:' ? new (httpsModule().Agent)(options) : new HttpAgent(options)
      this.#agents.set(key, agent)
    }
    return agent
  }

  #dropUnused (): void {
    const unused = (agent: HttpAgent) => [agent.sockets, agent.freeSockets, agent.requests].every((byName) => Object.keys(byName).length === 0)
    for (const [key, agent] of this.#agents) {
      if (unused(agent)) {
        agent.destroy()
        this.#agents.delete(key)
      }
    }
  }

  /** Closes every connection. */
  close (): void {
    for (const agent of this.#agents.values()) agent.destroy()
    this.#agents.clear()
  }
}

/** Reads what is left of an answer, at most MAX_ANSWER_BYTES within `withinMs`, so that its connection goes back to its pool; closes it otherwise. */
function drain (response: IncomingMessage, withinMs: number): void {
  let read = 0
  const stop = setTimeout(() => response.destroy(), Math.max(0, withinMs))
  response.on('data', (chunk: Buffer) => {
    read += chunk.length
    if (read > MAX_ANSWER_BYTES) response.destroy()
  })
  response.on('close', () => clearTimeout(stop))
  response.on('error', () => {})
}

class Refused extends Error {
  readonly code = 'ADDRESS_NOT_ALLOWED'
}

/** Resolves a host to the first address the service may connect to, or fails as not allowed. */
function checkedLookup (protocol: string, allowed: readonly Network[], lookup: Lookup): LookupFunction {
  return (hostname, options, callback) => {
    lookup(hostname).then((addresses) => {
      const address = addresses.find((candidate) => mayConnect(candidate, protocol, allowed))
      if (address === undefined) throw new Refused(`${hostname} resolves to no address the service may call (${addresses.join(', ')})`)
      const family = ipaddr.parse(address).kind() === 'ipv6' ? 6 : 4
      if ((options as { all?: boolean }).all === true) (callback as unknown as (error: null, addresses: Array<{ address: string, family: number }>) => void)(null, [{ address, family }])
      else callback(null, address, family)
    }).catch((error: NodeJS.ErrnoException) => { callback(error, '', 0) })
  }
}

function classify (error: NodeJS.ErrnoException): AttemptError {
  const code = error.code ?? ''
  if (code === 'ADDRESS_NOT_ALLOWED') return 'address_not_allowed'
  if (code === 'ECONNREFUSED') return 'connection_refused'
  if (code === 'ECONNRESET' || code === 'EPIPE') return 'connection_reset'
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA') return 'dns'
  if (code.startsWith('ERR_TLS') || code.startsWith('ERR_SSL') || /CERT|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code)) return 'tls'
  return 'network'
}

/**
 * `Retry-After` in milliseconds from now: seconds, or an HTTP date; Infinity when it is
 * neither (the longest wait the schedule allows, ./retries.ts); undefined when absent.
 */
export function retryAfterMs (value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined
  if (/^\d+$/.test(value.trim())) return Number(value.trim()) * 1000
  // An HTTP date names its day or month (`Fri, 27 Nov 2026 10:00:00 GMT`); Date.parse
  // would read a bare `-5` as a year.
  const date = /[A-Za-z]{3}/.test(value) ? Date.parse(value) : Number.NaN
  return Number.isNaN(date) ? Number.POSITIVE_INFINITY : Math.max(0, date - now)
}

/** Posts `body` to `url` once, and says what came of it; never throws. */
export async function attemptDelivery (url: URL, headers: Record<string, string>, body: string, options: AttemptOptions): Promise<AttemptResult> {
  const now = options.now ?? Date.now
  const started = now()
  const done = (result: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({ ...result, durationMs: now() - started })
  const host = hostOf(url)
  // An address in the URL itself is connected without any lookup: checked here.
  if (ipaddr.isValid(host) && !mayConnect(host, url.protocol, options.allowed)) return done({ succeeded: false, error: 'address_not_allowed' })
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return done({ succeeded: false, error: 'address_not_allowed' })

  const lookup = options.lookup ?? systemLookup
  let connect = { lookup: checkedLookup(url.protocol, options.allowed, lookup), agent: false as HttpAgent | false }
  if (options.pools !== undefined) {
    // Resolved here, to use only a kept connection to an address the host has now.
    let address = ipaddr.isValid(host) ? host : undefined
    if (address === undefined) {
      const resolved = await lookup(host).then((addresses) => addresses, (error: NodeJS.ErrnoException) => error)
      if (resolved instanceof Error) return done({ succeeded: false, error: classify(resolved) })
      address = resolved.find((candidate) => mayConnect(candidate, url.protocol, options.allowed))
      if (address === undefined) return done({ succeeded: false, error: 'address_not_allowed' })
    }
    const at = address
    connect = { lookup: checkedLookup(url.protocol, options.allowed, async () => [at]), agent: options.pools.for(url, at) }
  }
  const payload = Buffer.from(body)
  const requestOptions: RequestOptions = {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json', 'content-length': payload.length, 'user-agent': WEBHOOK_USER_AGENT },
    ...connect,
    timeout: options.timeoutMs
  }
  const send = url.protocol === 'https:' ? httpsModule().request : httpRequest
  return await new Promise<AttemptResult>((resolve) => {
    let settled = false
    const finish = (result: Omit<AttemptResult, 'durationMs'>) => {
      if (settled) return
      settled = true
      clearTimeout(deadline)
      options.signal?.removeEventListener('abort', abort)
      resolve(done(result))
    }
    const request = send(url, requestOptions, (response: IncomingMessage) => {
      // The status decides; the body is drained for a pooled connection, else closed.
      const status = response.statusCode ?? 0
      const after = status === 429 || status === 503 ? retryAfterMs(response.headers['retry-after'], now()) : undefined
      if (options.pools === undefined) response.destroy()
      else drain(response, started + options.timeoutMs - now())
      if (status >= 200 && status < 300) finish({ succeeded: true, status })
      else if (status >= 300 && status < 400) finish({ succeeded: false, status, error: 'redirect' })
      else finish({ succeeded: false, status, error: 'http_status', ...after === undefined ? {} : { retryAfterMs: after } })
    })
    // The whole attempt, connection and answer, within the timeout.
    const deadline = setTimeout(() => {
      finish({ succeeded: false, error: 'timeout' })
      request.destroy()
    }, options.timeoutMs)
    request.on('timeout', () => {
      finish({ succeeded: false, error: 'timeout' })
      request.destroy()
    })
    request.on('error', (error: NodeJS.ErrnoException) => { finish({ succeeded: false, error: classify(error) }) })
    function abort (): void {
      finish({ succeeded: false, error: 'network' })
      request.destroy()
    }
    if (options.signal?.aborted === true) abort()
    else options.signal?.addEventListener('abort', abort, { once: true })
    request.end(payload)
  })
}
