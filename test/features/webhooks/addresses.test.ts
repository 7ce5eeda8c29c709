/**
 * Where webhooks may go: public addresses only, in every form an address can take, as the
 * IANA special-purpose address registries say (their first and last addresses, and the
 * globally reachable exceptions inside them), and the networks WEBHOOK_ALLOWED_NETWORKS
 * names; the URL checked when an endpoint is saved, on every address its host resolves to
 * (DNS here is a table, never the network).
 */
import t from 'tap'
import { checkWebhookUrl, mayConnect, refusedRange, type Lookup } from '../../../src/features/webhooks/addresses.ts'
import { parseNetworks } from '../../../src/config/values.ts'

const REFUSED: Array<[string, string]> = [
  ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'], ['::1', 'loopback'],
  ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['192.168.1.1', 'private'],
  ['169.254.169.254', 'linkLocal'], ['fe80::1', 'linkLocal'],
  ['100.64.0.1', 'carrierGradeNat'], ['100.100.100.200', 'carrierGradeNat'],
  ['fc00::1', 'uniqueLocal'], ['fd00:ec2::254', 'uniqueLocal'],
  ['224.0.0.1', 'multicast'], ['ff02::1', 'multicast'],
  ['0.0.0.0', 'unspecified'], ['::', 'unspecified'], ['255.255.255.255', 'broadcast'],
  ['192.0.2.1', 'documentation (192.0.2.0/24)'], ['198.18.0.1', 'benchmarking (198.18.0.0/15)'],
  ['240.0.0.1', 'reserved (240.0.0.0/4)'], ['2001:db8::1', 'documentation (2001:db8::/32)'],
  // IPv6 forms of IPv4 addresses: the mapped and translated ones judged by the address they carry.
  ['::ffff:127.0.0.1', 'loopback'], ['::ffff:169.254.169.254', 'linkLocal'], ['::ffff:a01:203', 'private'],
  ['64:ff9b::7f00:1', 'loopback'], ['2002:7f00:1::', '6to4 (2002::/16)'], ['2001::1', 'Teredo (2001::/32)']
]
const PUBLIC = ['8.8.8.8', '1.1.1.1', '203.0.114.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e', '::ffff:8.8.8.8']

t.test('only public unicast addresses are allowed; every other range is refused by its name', async (t) => {
  for (const [address, range] of REFUSED) t.equal(refusedRange(address, []), range, address)
  for (const address of PUBLIC) t.equal(refusedRange(address, []), undefined, address)
  t.equal(refusedRange('not an address', []), 'invalid')
  t.equal(refusedRange('::08.8.8.8', []), 'invalid', 'an IPv6 address only as Node reads one (it would look this up as a name)')
})

t.test('all of ::/8 is reserved: IPv4-compatible addresses and the rest that ipaddr.js calls unicast', async (t) => {
  // An outside security review found each of these allowed.
  const reserved = ['::7f00:2', '::127.0.0.2', '::a00:1', '::10.0.0.1', '::169.254.169.254', '::ffff:ffff:7f00:2', '::1:0:0:1', '0:0:0:0:1::1',
    '::2', '::808:808', '::8.8.8.8', '::ffff:0:808:808', '64:ff9b:0:0:1::', 'ff:ffff:ffff:ffff:ffff:ffff:ffff:ffff']
  for (const address of reserved) {
    t.equal(refusedRange(address, []), 'reserved (::/8)', address)
    t.notOk(mayConnect(address, 'https:', []), `never connected: ${address}`)
  }
})

// Each range's first and last address (and one inside where they are the same), with the
// reason said.
const SPECIAL: Array<[string, string]> = [
  ['0.0.0.1', '"this network" (0.0.0.0/8)'], ['0.255.255.255', '"this network" (0.0.0.0/8)'],
  ['10.0.0.0', 'private'], ['10.255.255.255', 'private'],
  ['100.64.0.0', 'carrierGradeNat'], ['100.127.255.255', 'carrierGradeNat'],
  ['127.0.0.0', 'loopback'], ['127.255.255.255', 'loopback'],
  ['169.254.0.0', 'linkLocal'], ['169.254.255.255', 'linkLocal'],
  ['172.16.0.0', 'private'], ['172.31.255.255', 'private'],
  ['192.0.0.0', 'IPv4 service continuity (192.0.0.0/29)'], ['192.0.0.7', 'IPv4 service continuity (192.0.0.0/29)'],
  ['192.0.0.8', 'IPv4 dummy (192.0.0.8/32)'],
  ['192.0.0.11', 'IETF protocol assignments (192.0.0.0/24)'], ['192.0.0.255', 'IETF protocol assignments (192.0.0.0/24)'],
  ['192.0.0.170', 'NAT64/DNS64 discovery (192.0.0.170/32)'], ['192.0.0.171', 'NAT64/DNS64 discovery (192.0.0.171/32)'],
  ['192.0.2.0', 'documentation (192.0.2.0/24)'], ['192.0.2.255', 'documentation (192.0.2.0/24)'],
  ['192.88.99.0', 'deprecated 6to4 relay anycast (192.88.99.0/24)'], ['192.88.99.255', 'deprecated 6to4 relay anycast (192.88.99.0/24)'],
  ['192.88.99.2', '6a44 relay anycast (192.88.99.2/32)'],
  ['192.168.0.0', 'private'], ['192.168.255.255', 'private'],
  ['198.18.0.0', 'benchmarking (198.18.0.0/15)'], ['198.19.255.255', 'benchmarking (198.18.0.0/15)'],
  ['198.51.100.0', 'documentation (198.51.100.0/24)'], ['198.51.100.255', 'documentation (198.51.100.0/24)'],
  ['203.0.113.0', 'documentation (203.0.113.0/24)'], ['203.0.113.255', 'documentation (203.0.113.0/24)'],
  ['224.0.0.0', 'multicast'], ['239.255.255.255', 'multicast'],
  ['240.0.0.0', 'reserved (240.0.0.0/4)'], ['255.255.255.254', 'reserved (240.0.0.0/4)'],
  ['255.255.255.255', 'broadcast'],

  ['::', 'unspecified'], ['::1', 'loopback'],
  // IPv4-mapped and IPv4/IPv6 translation: the IPv4 address they carry decides.
  ['::ffff:0:0', 'unspecified'], ['::ffff:ffff:ffff', 'broadcast'], ['::ffff:a9fe:a9fe', 'linkLocal'],
  ['64:ff9b::', 'unspecified'], ['64:ff9b::ffff:ffff', 'broadcast'], ['64:ff9b::a00:1', 'private'], ['64:ff9b::c000:201', 'documentation (192.0.2.0/24)'],
  ['64:ff9b:1::', 'local-use IPv4/IPv6 translation (64:ff9b:1::/48)'], ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'local-use IPv4/IPv6 translation (64:ff9b:1::/48)'],
  ['64:ff9b:1::808:808', 'local-use IPv4/IPv6 translation (64:ff9b:1::/48)'],
  ['100::', 'discard-only (100::/64)'], ['100::ffff:ffff:ffff:ffff', 'discard-only (100::/64)'],
  ['100:0:0:1::', 'dummy (100:0:0:1::/64)'], ['100::1:ffff:ffff:ffff:ffff', 'dummy (100:0:0:1::/64)'],
  ['100:0:0:2::', 'reserved (100::/8)'],
  ['2001::', 'Teredo (2001::/32)'], ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'Teredo (2001::/32)'], ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo (2001::/32)'],
  ['2001:1::', 'IETF protocol assignments (2001::/23)'], ['2001:1::4', 'IETF protocol assignments (2001::/23)'],
  ['2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'IETF protocol assignments (2001::/23)'],
  ['2001:2::', 'benchmarking (2001:2::/48)'], ['2001:2:0:ffff:ffff:ffff:ffff:ffff', 'benchmarking (2001:2::/48)'],
  ['2001:10::', 'deprecated ORCHID (2001:10::/28)'], ['2001:1f:ffff:ffff:ffff:ffff:ffff:ffff', 'deprecated ORCHID (2001:10::/28)'],
  ['2001:20::', 'ORCHIDv2 (2001:20::/28)'], ['2001:2f:ffff:ffff:ffff:ffff:ffff:ffff', 'ORCHIDv2 (2001:20::/28)'],
  ['2001:30::', 'drone entity tag (2001:30::/28)'], ['2001:3f:ffff:ffff:ffff:ffff:ffff:ffff', 'drone entity tag (2001:30::/28)'],
  ['2001:db8::', 'documentation (2001:db8::/32)'], ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation (2001:db8::/32)'],
  // 6to4, whatever IPv4 address it carries: refused outright, public or not.
  ['2002::', '6to4 (2002::/16)'], ['2002:ffff:ffff:ffff:ffff:ffff:ffff:ffff', '6to4 (2002::/16)'],
  ['2002:7f00:1::', '6to4 (2002::/16)'], ['2002:808:808::', '6to4 (2002::/16)'],
  ['3fff::', 'documentation (3fff::/20)'], ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation (3fff::/20)'],
  ['5f00::', 'segment routing SID (5f00::/16)'], ['5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'segment routing SID (5f00::/16)'],
  ['fc00::', 'uniqueLocal'], ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'uniqueLocal'],
  ['fe80::', 'linkLocal'], ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'linkLocal'],
  ['fec0::', 'deprecated site-local (fec0::/10)'], ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'deprecated site-local (fec0::/10)'],
  ['ff00::', 'multicast'], ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
  // Outside global unicast (2000::/3), the IPv6 address space is reserved.
  ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved (1000::/4)'], ['4000::', 'reserved (4000::/3)'], ['e000::1', 'reserved (e000::/4)'],
  ['fe00::', 'reserved (fe00::/9)']
]

// Just outside a refused range, and the ranges the registries call globally reachable.
const ALLOWED = [
  '1.0.0.0', '9.255.255.255', '11.0.0.0', '100.63.255.255', '100.128.0.0', '126.255.255.255', '128.0.0.0',
  '169.253.255.255', '169.255.0.0', '172.15.255.255', '172.32.0.0', '191.255.255.255', '192.0.1.0', '192.0.3.0',
  '192.88.98.255', '192.88.100.0', '192.167.255.255', '192.169.0.0', '198.17.255.255', '198.20.0.0', '223.255.255.255',
  '192.0.0.9', '192.0.0.10', '192.31.196.0', '192.31.196.255', '192.52.193.1', '192.175.48.1',
  '2000::', '2001:200::', '2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', '2001:db9::', '2003::', '3ffe:ffff::', '3fff:1000::',
  '3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff',
  '2001:1::1', '2001:1::2', '2001:1::3', '2001:3::', '2001:3:ffff:ffff:ffff:ffff:ffff:ffff', '2001:4:112::1', '2620:4f:8000::1',
  // A translated address carries a public one.
  '64:ff9b::808:808', '64:ff9b::8.8.8.8', '::ffff:1.1.1.1',
  '8.8.8.8', '1.1.1.1', '2606:4700::1111', '2a00:1450::1'
]

t.test('the IANA special-purpose registries decide: each range refused to its edges, the globally reachable allowed', async (t) => {
  for (const [address, range] of SPECIAL) {
    t.equal(refusedRange(address, []), range, address)
    t.notOk(mayConnect(address, 'https:', []), `never connected: ${address}`)
  }
  for (const address of ALLOWED) {
    t.equal(refusedRange(address, []), undefined, address)
    t.ok(mayConnect(address, 'https:', []), `connected over https: ${address}`)
    t.notOk(mayConnect(address, 'http:', []), `not over http: ${address}`)
  }
})

t.test('in IPv6 only global unicast, 2000::/3, may be public', async (t) => {
  // 0000::1, 0101::1, ... ffff::1: one address for each value of the first eight bits.
  for (let top = 0; top < 0x100; top++) {
    const address = `${(top << 8 | top).toString(16)}::1`
    if (top >= 0x20 && top < 0x40) t.equal(refusedRange(address, []), undefined, address)
    else t.not(refusedRange(address, []), undefined, address)
  }
})

t.test('WEBHOOK_ALLOWED_NETWORKS lets its networks through, IPv4 ones in their IPv6-mapped form too', async (t) => {
  const allowed = parseNetworks('127.0.0.0/8, fd00::/8')
  t.equal(refusedRange('127.0.0.1', allowed), undefined)
  t.equal(refusedRange('::ffff:127.0.0.2', allowed), undefined)
  t.equal(refusedRange('fd12::1', allowed), undefined)
  t.equal(refusedRange('::1', allowed), 'loopback', 'an IPv6 loopback is not in 127.0.0.0/8')
  t.equal(refusedRange('10.0.0.1', allowed), 'private')
  t.equal(refusedRange('::127.0.0.2', allowed), 'reserved (::/8)', 'an IPv4-compatible address is not the IPv4 one')
  t.equal(refusedRange('64:ff9b::7f00:1', allowed), 'loopback', 'nor is a translated one')
  t.equal(refusedRange('2002:7f00:1::', parseNetworks('2002::/16')), undefined, 'an allowed network comes before any range')
  t.same(parseNetworks(''), [])
  t.same(parseNetworks(' , '), [])
  t.throws(() => parseNetworks('127.0.0.1'), /not a network in CIDR notation \(such as 127\.0\.0\.0\/8 or ::1\/128\): 127\.0\.0\.1/)
  t.throws(() => parseNetworks('10.0.0.0/8,10.0.0.0/33'), /: 10\.0\.0\.0\/33$/)
})

t.test('a webhook URL: https to a host whose every address is public, or http to allowed networks', async (t) => {
  const dns: Record<string, string[]> = {
    'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
    'split.example.com': ['93.184.216.34', '10.0.0.5'],
    'metadata.example.com': ['169.254.169.254'],
    // How Node writes an address of ::/96 that a name resolves to.
    'compatible.example.com': ['::127.0.0.2'],
    localhost: ['127.0.0.1', '::1'],
    'empty.example.com': []
  }
  const lookup: Lookup = async (host) => {
    const addresses = dns[host]
    if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' })
    return addresses
  }
  const allowed = parseNetworks('127.0.0.0/8')
  const check = async (url: string, networks = allowed) => {
    const result = await checkWebhookUrl(url, networks, lookup)
    return result.ok ? 'ok' : result.reason
  }
  t.equal(await check('https://hooks.example.com/petstore?x=1'), 'ok')
  t.equal(await check('https://93.184.216.34:8443/hook'), 'ok')
  t.equal(await check('https://[2606:4700:4700::1111]/hook'), 'ok')
  t.equal(await check('http://127.0.0.1:4000/hook'), 'ok', 'plain http to an allowed network')
  t.equal(await check('https://127.0.0.1:4000/hook'), 'ok')

  t.equal(await check('http://hooks.example.com/'), 'its scheme is http, not https (plain http only to WEBHOOK_ALLOWED_NETWORKS)')
  t.equal(await check('ftp://hooks.example.com/'), 'its scheme is ftp, not https')
  t.equal(await check('file:///etc/passwd'), 'its scheme is file, not https')
  t.equal(await check('hooks.example.com/hook'), 'it is not an absolute URL')
  t.equal(await check(''), 'it is not an absolute URL')
  t.equal(await check('https://user:pass@hooks.example.com/'), 'it holds credentials; put a secret in the path or rely on the signature')
  t.equal(await check('https://split.example.com/'), 'its host split.example.com is at 10.0.0.5, a private address, not a public one', 'one private address is enough')
  t.equal(await check('https://metadata.example.com/'), 'its host metadata.example.com is at 169.254.169.254, a linkLocal address, not a public one')
  t.equal(await check('https://localhost/', []), 'its host localhost is at 127.0.0.1, a loopback address, not a public one')
  t.equal(await check('https://localhost/'), 'its host localhost is at ::1, a loopback address, not a public one', '::1 is outside 127.0.0.0/8')
  t.equal(await check('https://[::1]/'), 'its host ::1 is at ::1, a loopback address, not a public one')
  t.equal(await check('https://[::ffff:169.254.169.254]/'), 'its host ::ffff:a9fe:a9fe is at ::ffff:a9fe:a9fe, a linkLocal address, not a public one')
  t.equal(await check('https://[::7f00:2]/', []), 'its host ::7f00:2 is at ::7f00:2, a reserved (::/8) address, not a public one')
  t.equal(await check('https://[::127.0.0.2]/'), 'its host ::7f00:2 is at ::7f00:2, a reserved (::/8) address, not a public one', 'the URL parser writes it in hexadecimal')
  t.equal(await check('https://compatible.example.com/'), 'its host compatible.example.com is at ::127.0.0.2, a reserved (::/8) address, not a public one')
  t.equal(await check('https://[64:ff9b::7f00:1]/'), 'its host 64:ff9b::7f00:1 is at 64:ff9b::7f00:1, a loopback address, not a public one')
  t.equal(await check('https://[64:ff9b::8.8.8.8]/'), 'ok', 'a translated public address')
  t.equal(await check('https://[2002:808:808::]/'), 'its host 2002:808:808:: is at 2002:808:808::, a 6to4 (2002::/16) address, not a public one')
  t.equal(await check('https://192.0.0.171/'), 'its host 192.0.0.171 is at 192.0.0.171, a NAT64/DNS64 discovery (192.0.0.171/32) address, not a public one')
  t.equal(await check('https://[2001:20::1]/'), 'its host 2001:20::1 is at 2001:20::1, an ORCHIDv2 (2001:20::/28) address, not a public one')
  t.equal(await check('https://[::]/'), 'its host :: is at ::, an unspecified address, not a public one')
  // The URL parser reads IPv4 shorthand and hexadecimal as the address they mean.
  t.equal(await check('https://2130706433/', []), 'its host 127.0.0.1 is at 127.0.0.1, a loopback address, not a public one')
  t.equal(await check('https://0x7f.1/', []), 'its host 127.0.0.1 is at 127.0.0.1, a loopback address, not a public one')
  t.equal(await check('https://nowhere.example.com/'), 'its host nowhere.example.com does not resolve')
  t.equal(await check('https://empty.example.com/'), 'its host empty.example.com does not resolve')
})

t.test("the system's resolver by default: localhost is a loopback address", async (t) => {
  const allowed = await checkWebhookUrl('http://localhost:4000/hook', parseNetworks('127.0.0.0/8,::1/128'))
  t.equal(allowed.ok, true)
  const refused = await checkWebhookUrl('https://localhost:4000/hook', [])
  t.match(refused, { ok: false, reason: /^its host localhost is at (127\.0\.0\.1|::1), a loopback address, not a public one$/ })
})
