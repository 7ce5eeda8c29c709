/**
 * The address a client is counted under for per-address limits. IPv4 addresses (and
 * IPv4-mapped IPv6 ones) count one by one; IPv6 addresses count per /64, the block a
 * single site or host is usually given, so one client cannot dodge the limit by walking
 * through its own addresses.
 */
import ipaddr from 'ipaddr.js'

// Parsing an address is a visible part of a cheap request's cost, and a service sees the
// same few addresses again and again; the answers are kept, up to a bound.
const known = new Map<string, string>()
const KNOWN_MAX = 10_000

export function clientAddress (ip: string): string {
  let address = known.get(ip)
  if (address === undefined) {
    address = countedAs(ip)
    if (known.size >= KNOWN_MAX) known.clear()
    known.set(ip, address)
  }
  return address
}

function countedAs (ip: string): string {
  if (!ipaddr.isValid(ip)) return ip
  const address = ipaddr.process(ip)
  if (address.kind() === 'ipv4') return address.toString()
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16))
  return `${parts.join(':')}::/64`
}
