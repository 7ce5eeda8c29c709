/**
 * Where webhooks may go (docs/decisions.md#webhook-addresses): only to public addresses, so
 * that no one who may save an endpoint can make the service call inside its own network
 * (server-side request forgery).
 *
 * An address is judged against the IANA special-purpose address registries, kept below as
 * data, not by ipaddr.js's `range()`, which calls much that is not globally reachable
 * "unicast" (::7f00:2, say):
 * https://www.iana.org/assignments/iana-ipv4-special-registry/ and
 * https://www.iana.org/assignments/iana-ipv6-special-registry/ (their entries as of 2025).
 * The most specific range an address is in decides: refused where the registry's "Globally
 * Reachable" is False or N/A, allowed where it is True (the anycast and AS112 exceptions);
 * two ranges it says True of, ORCHIDv2 and drone entity tags, are refused all the same:
 * they name hosts, they locate none. IPv4 multicast is refused, and in IPv6 everything
 * outside global unicast 2000::/3 (https://www.iana.org/assignments/ipv6-address-space/):
 * the whole of ::/8, IPv4-compatible ::/96 included, is reserved.
 *
 * Of the IPv6 forms that carry an IPv4 address, IPv4-mapped (::ffff:0:0/96) and
 * IPv4/IPv6 translation (64:ff9b::/96) are judged by the IPv4 address they carry; local-use
 * translation (64:ff9b:1::/48), 6to4 (2002::/16) and Teredo (2001::/32) are refused
 * outright: the registry does not call them globally reachable, and what they reach goes
 * through a relay or translator the service does not choose.
 *
 * `WEBHOOK_ALLOWED_NETWORKS` (read by ../../config/values.ts) lets chosen networks through,
 * before any range is looked at, and plain `http` to them: how local development and the
 * tests reach a receiver on 127.0.0.1. An IPv4 network lets through the IPv4-mapped form of
 * its addresses too.
 *
 * The check runs when an endpoint is saved (`checkWebhookUrl`, on every address its host
 * resolves to) and again at each delivery, on the address actually connected
 * (`mayConnect`, ./attempt.ts), since a name may later resolve elsewhere.
 */
import { lookup as dnsLookup } from 'node:dns/promises'
import { isIPv6 } from 'node:net'
import ipaddr from 'ipaddr.js'
import type { Network } from '../../config/values.ts'

/**
 * What becomes of an address in a range: `public` (the registry calls it globally
 * reachable), `refused`, or `by its IPv4 address` (the one in its last 32 bits).
 */
type Verdict = 'public' | 'refused' | 'by its IPv4 address'

/** A range, its name, and its verdict. */
type Row = readonly [cidr: string, name: string, verdict: Verdict]

const PUBLIC = 'public'
const REFUSED = 'refused'
const EMBEDDED = 'by its IPv4 address'

/** https://www.iana.org/assignments/iana-ipv4-special-registry/, and multicast. */
const IPV4_ROWS: readonly Row[] = [
  ['0.0.0.0/8', '"this network"', REFUSED],
  ['0.0.0.0/32', 'unspecified', REFUSED],
  ['10.0.0.0/8', 'private', REFUSED],
  ['100.64.0.0/10', 'carrierGradeNat', REFUSED],
  ['127.0.0.0/8', 'loopback', REFUSED],
  ['169.254.0.0/16', 'linkLocal', REFUSED],
  ['172.16.0.0/12', 'private', REFUSED],
  ['192.0.0.0/24', 'IETF protocol assignments', REFUSED],
  ['192.0.0.0/29', 'IPv4 service continuity', REFUSED],
  ['192.0.0.8/32', 'IPv4 dummy', REFUSED],
  ['192.0.0.9/32', 'PCP anycast', PUBLIC],
  ['192.0.0.10/32', 'TURN anycast', PUBLIC],
  ['192.0.0.170/32', 'NAT64/DNS64 discovery', REFUSED],
  ['192.0.0.171/32', 'NAT64/DNS64 discovery', REFUSED],
  ['192.0.2.0/24', 'documentation', REFUSED],
  ['192.31.196.0/24', 'AS112', PUBLIC],
  ['192.52.193.0/24', 'AMT', PUBLIC],
  ['192.88.99.0/24', 'deprecated 6to4 relay anycast', REFUSED], // Globally Reachable: N/A
  ['192.88.99.2/32', '6a44 relay anycast', REFUSED],
  ['192.168.0.0/16', 'private', REFUSED],
  ['192.175.48.0/24', 'AS112 direct delegation', PUBLIC],
  ['198.18.0.0/15', 'benchmarking', REFUSED],
  ['198.51.100.0/24', 'documentation', REFUSED],
  ['203.0.113.0/24', 'documentation', REFUSED],
  ['224.0.0.0/4', 'multicast', REFUSED], // https://www.iana.org/assignments/multicast-addresses/
  ['240.0.0.0/4', 'reserved', REFUSED],
  ['255.255.255.255/32', 'broadcast', REFUSED]
]

/** https://www.iana.org/assignments/iana-ipv6-special-registry/, and the IPv6 address space outside global unicast. */
const IPV6_ROWS: readonly Row[] = [
  ['::/128', 'unspecified', REFUSED],
  ['::1/128', 'loopback', REFUSED],
  ['::ffff:0:0/96', 'IPv4-mapped', EMBEDDED],
  ['64:ff9b::/96', 'IPv4/IPv6 translation', EMBEDDED],
  ['64:ff9b:1::/48', 'local-use IPv4/IPv6 translation', REFUSED],
  ['100::/64', 'discard-only', REFUSED],
  ['100:0:0:1::/64', 'dummy', REFUSED],
  ['2001::/23', 'IETF protocol assignments', REFUSED],
  ['2001::/32', 'Teredo', REFUSED], // Globally Reachable: N/A
  ['2001:1::1/128', 'PCP anycast', PUBLIC],
  ['2001:1::2/128', 'TURN anycast', PUBLIC],
  ['2001:1::3/128', 'DNS-SD service registration anycast', PUBLIC],
  ['2001:2::/48', 'benchmarking', REFUSED],
  ['2001:3::/32', 'AMT', PUBLIC],
  ['2001:4:112::/48', 'AS112', PUBLIC],
  ['2001:10::/28', 'deprecated ORCHID', REFUSED],
  ['2001:20::/28', 'ORCHIDv2', REFUSED], // Globally Reachable: True, but an identifier, not a locator (RFC 7343)
  ['2001:30::/28', 'drone entity tag', REFUSED], // Globally Reachable: True, but ORCHIDv2's kind (RFC 9374)
  ['2001:db8::/32', 'documentation', REFUSED],
  ['2002::/16', '6to4', REFUSED], // Globally Reachable: N/A
  ['2620:4f:8000::/48', 'AS112 direct delegation', PUBLIC],
  ['3fff::/20', 'documentation', REFUSED],
  ['5f00::/16', 'segment routing SID', REFUSED],
  ['fc00::/7', 'uniqueLocal', REFUSED],
  ['fe80::/10', 'linkLocal', REFUSED],
  // https://www.iana.org/assignments/ipv6-address-space/: all but 2000::/3 global unicast.
  ['::/8', 'reserved', REFUSED],
  ['100::/8', 'reserved', REFUSED],
  ['200::/7', 'reserved', REFUSED],
  ['400::/6', 'reserved', REFUSED],
  ['800::/5', 'reserved', REFUSED],
  ['1000::/4', 'reserved', REFUSED],
  ['2000::/3', 'global unicast', PUBLIC],
  ['4000::/3', 'reserved', REFUSED],
  ['6000::/3', 'reserved', REFUSED],
  ['8000::/3', 'reserved', REFUSED],
  ['a000::/3', 'reserved', REFUSED],
  ['c000::/3', 'reserved', REFUSED],
  ['e000::/4', 'reserved', REFUSED],
  ['f000::/5', 'reserved', REFUSED],
  ['f800::/6', 'reserved', REFUSED],
  ['fe00::/9', 'reserved', REFUSED],
  ['fec0::/10', 'deprecated site-local', REFUSED],
  ['ff00::/8', 'multicast', REFUSED]
]

interface Range { network: Network, cidr: string, name: string, verdict: Verdict }

/** A table's ranges, the longest prefix first: the first one an address is in is the most specific. */
function ranges (rows: readonly Row[]): Range[] {
  return rows.map(([cidr, name, verdict]) => ({ network: ipaddr.parseCIDR(cidr), cidr, name, verdict }))
    .sort((a, b) => b.network[1] - a.network[1])
}

const IPV4_RANGES = ranges(IPV4_ROWS)
const IPV6_RANGES = ranges(IPV6_ROWS)

/** The names the messages have always used, said alone; every other range is said with its CIDR. */
const SAID_ALONE = new Set(['unspecified', 'private', 'carrierGradeNat', 'loopback', 'linkLocal', 'uniqueLocal', 'multicast', 'broadcast'])

/** Why the registries refuse `address`, or undefined where they let it through. */
function judged (address: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  const range = (address.kind() === 'ipv4' ? IPV4_RANGES : IPV6_RANGES).find(({ network }) => within(address, [network]))
  // Every IPv6 address is in a row (2000::/3 or one around it); an IPv4 one in none is public.
  if (range === undefined) return address.kind() === 'ipv4' ? undefined : 'reserved'
  if (range.verdict === PUBLIC) return undefined
  if (range.verdict === EMBEDDED) return judged(new ipaddr.IPv4(address.toByteArray().slice(12)))
  return SAID_ALONE.has(range.name) ? range.name : `${range.name} (${range.cidr})`
}

/**
 * Why an address is refused (its range: a name the messages have always used, such as
 * `private`, or a name with its CIDR, such as `reserved (::/8)`), `invalid` where it is no
 * address, or undefined where it is allowed.
 */
export function refusedRange (address: string, allowed: readonly Network[]): string | undefined {
  // An IPv6 address only as Node reads one: ipaddr.js takes `::08.8.8.8` too, a name to Node.
  if (!ipaddr.isValid(address) || (address.includes(':') && !isIPv6(address))) return 'invalid'
  const parsed = parse(address)
  if (inAllowed(parsed, allowed)) return undefined
  return judged(parsed)
}

function within (address: ipaddr.IPv4 | ipaddr.IPv6, networks: readonly Network[]): boolean {
  return networks.some(([network, bits]) => network.kind() === address.kind() && address.match(network, bits))
}

/** Whether an allowed network holds `address`, or the IPv4 address an IPv4-mapped one maps. */
function inAllowed (address: ipaddr.IPv4 | ipaddr.IPv6, allowed: readonly Network[]): boolean {
  if (within(address, allowed)) return true
  return address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() && within(address.toIPv4Address(), allowed)
}

/** Whether the service may connect to `address` over `protocol`: any allowed address over https, plain http only inside the allowed networks. */
export function mayConnect (address: string, protocol: string, allowed: readonly Network[]): boolean {
  if (refusedRange(address, allowed) !== undefined) return false
  return protocol === 'https:' || inAllowed(parse(address), allowed)
}

/**
 * An address as the service connects to it. ipaddr.js reads `::a.b.c.d` as IPv4-mapped
 * (`::ffff:a.b.c.d`), but it is IPv4-compatible (`::/96`, as `inet_pton` reads it), and it
 * is how Node writes an address of `::/96` a name resolves to (`::7f00:2` as `::127.0.0.2`):
 * the dotted part is made two hexadecimal groups first.
 */
function parse (address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const dotted = /^([^%]*:)(\d+)\.(\d+)\.(\d+)\.(\d+)(%.*)?$/.exec(address)
  if (dotted === null) return ipaddr.parse(address)
  const [, head, a, b, c, d, zone] = dotted
  const group = (high: string | undefined, low: string | undefined) => ((Number(high) << 8) | Number(low)).toString(16)
  return ipaddr.parse(`${head}${group(a, b)}:${group(c, d)}${zone ?? ''}`)
}

/** A URL's host, an IPv6 literal without the brackets `hostname` keeps. */
export function hostOf (url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, '$1')
}

/** Every address a host name resolves to. */
export type Lookup = (host: string) => Promise<string[]>
export const systemLookup: Lookup = async (host) => (await dnsLookup(host, { all: true, verbatim: true })).map((entry) => entry.address)

export type UrlCheck = { ok: true, url: URL } | { ok: false, reason: string }

/** `a` or `an`, as a range's name is said: an IETF, an unspecified, a uniqueLocal. */
const article = (name: string) => /^(?:[aeioAEIO]|un(?!i))/.test(name) ? 'an' : 'a'

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
    if (range !== undefined) return { ok: false, reason: `its host ${host} is at ${address}, ${article(range)} ${range} address, not a public one` }
  }
  if (!addresses.every((address) => mayConnect(address, url.protocol, allowed))) {
    return { ok: false, reason: 'its scheme is http, not https (plain http only to WEBHOOK_ALLOWED_NETWORKS)' }
  }
  return { ok: true, url }
}
