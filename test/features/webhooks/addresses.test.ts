/**
 * Where webhooks may go: public addresses only, in every form an address can take, and
 * the networks WEBHOOK_ALLOWED_NETWORKS names; the URL checked when an endpoint is saved,
 * on every address its host resolves to (DNS here is a table, never the network).
 */
import t from 'tap'
import { checkWebhookUrl, parseNetworks, refusedRange, type Lookup } from '../../../src/features/webhooks/addresses.ts'

const REFUSED: Array<[string, string]> = [
  ['127.0.0.1', 'loopback'], ['127.255.0.9', 'loopback'], ['::1', 'loopback'],
  ['10.1.2.3', 'private'], ['172.16.0.1', 'private'], ['192.168.1.1', 'private'],
  ['169.254.169.254', 'linkLocal'], ['fe80::1', 'linkLocal'],
  ['100.64.0.1', 'carrierGradeNat'], ['100.100.100.200', 'carrierGradeNat'],
  ['fc00::1', 'uniqueLocal'], ['fd00:ec2::254', 'uniqueLocal'],
  ['224.0.0.1', 'multicast'], ['ff02::1', 'multicast'],
  ['0.0.0.0', 'unspecified'], ['::', 'unspecified'], ['255.255.255.255', 'broadcast'],
  ['192.0.2.1', 'reserved'], ['198.18.0.1', 'reserved'], ['240.0.0.1', 'reserved'], ['2001:db8::1', 'reserved'],
  // IPv6 forms of IPv4 addresses: the mapped one judged by the address it maps.
  ['::ffff:127.0.0.1', 'loopback'], ['::ffff:169.254.169.254', 'linkLocal'], ['::ffff:a01:203', 'private'],
  ['64:ff9b::7f00:1', 'rfc6052'], ['2002:7f00:1::', '6to4'], ['2001::1', 'teredo']
]
const PUBLIC = ['8.8.8.8', '1.1.1.1', '203.0.114.1', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e', '::ffff:8.8.8.8']

t.test('only public unicast addresses are allowed; every other range is refused by its name', async (t) => {
  for (const [address, range] of REFUSED) t.equal(refusedRange(address, []), range, address)
  for (const address of PUBLIC) t.equal(refusedRange(address, []), undefined, address)
  t.equal(refusedRange('not an address', []), 'invalid')
})

t.test('WEBHOOK_ALLOWED_NETWORKS lets its networks through, IPv4 ones in their IPv6-mapped form too', async (t) => {
  const allowed = parseNetworks('127.0.0.0/8, fd00::/8')
  t.equal(refusedRange('127.0.0.1', allowed), undefined)
  t.equal(refusedRange('::ffff:127.0.0.2', allowed), undefined)
  t.equal(refusedRange('fd12::1', allowed), undefined)
  t.equal(refusedRange('::1', allowed), 'loopback', 'an IPv6 loopback is not in 127.0.0.0/8')
  t.equal(refusedRange('10.0.0.1', allowed), 'private')
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
