/**
 * Where webhooks may go (PRODUCT.md, "Delivery", Addresses): only to public addresses, so
 * that no one who may save an endpoint can make the service call inside its own network
 * (server-side request forgery). An address is public when ipaddr.js classifies it as
 * global unicast; every other range is refused, whatever its name: loopback, private,
 * link-local (cloud metadata at 169.254.169.254 among them), CGNAT, unique-local,
 * multicast, reserved, unspecified, and the IPv6 forms that carry an IPv4 address
 * (IPv4-mapped, NAT64, 6to4, Teredo), an IPv4-mapped one judged by the IPv4 address it maps.
 *
 * `WEBHOOK_ALLOWED_NETWORKS` lets chosen networks through, and plain `http` to them: how
 * local development and the tests reach a receiver on 127.0.0.1.
 *
 * The check runs when an endpoint is saved (`checkWebhookUrl`, on every address its host
 * resolves to) and again at each delivery, on the address actually connected
 * (`addressAllowed`), since a name may later resolve elsewhere.
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import ipaddr from 'ipaddr.js'

export type Network = [ipaddr.IPv4 | ipaddr.IPv6, number]

/** `WEBHOOK_ALLOWED_NETWORKS`: CIDRs separated by commas; throws naming one that is not. */
export function parseNetworks (text: string): Network[] {
  return text.split(',').map((part) => part.trim()).filter((part) => part !== '').map((cidr) => {
    try {
      return ipaddr.parseCIDR(cidr)
    } catch {
      throw new Error(`not a network in CIDR notation (such as 127.0.0.0/8 or ::1/128): ${cidr}`)
    }
  })
}

/** Why an address is refused (its range, as ipaddr.js names it), or undefined where it is allowed. */
export function refusedRange (address: string, allowed: readonly Network[]): string | undefined {
  if (!ipaddr.isValid(address)) return 'invalid'
  let parsed = ipaddr.parse(address)
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address()
  if (within(parsed, allowed)) return undefined
  const range = parsed.range()
  return range === 'unicast' ? undefined : range
}

function within (address: ipaddr.IPv4 | ipaddr.IPv6, networks: readonly Network[]): boolean {
  return networks.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits))
}

/** Whether the service may connect to `address` over `protocol`: any allowed address over https, plain http only inside the allowed networks. */
export function mayConnect (address: string, protocol: string, allowed: readonly Network[]): boolean {
  if (refusedRange(address, allowed) !== undefined) return false
  return protocol === 'https:' || within(ipaddr.process(address), allowed)
}

/** A URL's host, an IPv6 literal without the brackets `hostname` keeps. */
export function hostOf (url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1')
}

/** Every address a host name resolves to. */
export type Lookup = (host: string) => Promise<string[]>
export const systemLookup: Lookup = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address)

export type UrlCheck = { ok: true, url: URL } | { ok: false, reason: string }

/**
 * Whether the service will send webhooks to `text`: an absolute `https` URL (or `http`
 * where every address of its host is in an allowed network) with a host whose every
 * address is allowed. The reason is said to the person saving the endpoint.
 */
export async function checkWebhookUrl (text: string, allowed: readonly Network[], lookup: Lookup = systemLookup): Promise<UrlCheck> {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return { ok: false, reason: 'it is not an absolute URL' }
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: `its scheme is ${url.protocol.slice(0, -1)}, not https` }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'it holds credentials; put a secret in the path or rely on the signature' }
  const host = hostOf(url)
  if (host === '') return { ok: false, reason: 'it has no host' }
  let addresses: string[]
  try {
    addresses = ipaddr.isValid(host) ? [host] : await lookup(host)
  } catch {
    return { ok: false, reason: `its host ${host} does not resolve` }
  }
  if (addresses.length === 0) return { ok: false, reason: `its host ${host} does not resolve` }
  for (const address of addresses) {
    const range = refusedRange(address, allowed)
    if (range !== undefined) return { ok: false, reason: `its host ${host} is at ${address}, a ${range} address, not a public one` }
  }
  if (!addresses.every((address) => mayConnect(address, url.protocol, allowed))) {
    return { ok: false, reason: 'its scheme is http, not https (plain http only to WEBHOOK_ALLOWED_NETWORKS)' }
  }
  return { ok: true, url }
}
