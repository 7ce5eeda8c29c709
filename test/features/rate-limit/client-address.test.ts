import t from 'tap'
import { clientAddress } from '../../../src/features/rate-limit/client-address.ts'

t.test('IPv4 counts one by one, IPv6 per /64, the same way every time', async (t) => {
  for (let round = 0; round < 2; round++) {
    t.equal(clientAddress('203.0.113.7'), '203.0.113.7')
    t.equal(clientAddress('::ffff:203.0.113.7'), '203.0.113.7', 'an IPv4-mapped address is the IPv4 one')
    t.equal(clientAddress('2001:db8:1:2:3:4:5:6'), '2001:db8:1:2::/64')
    t.equal(clientAddress('2001:db8:1:2:ffff::1'), '2001:db8:1:2::/64', 'the same /64')
    t.equal(clientAddress('not an address'), 'not an address')
  }
})

t.test('past its bound, what it keeps starts again and answers stay right', async (t) => {
  for (let i = 0; i < 10_050; i++) clientAddress(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`)
  t.equal(clientAddress('10.0.0.1'), '10.0.0.1')
  t.equal(clientAddress('2001:db8::1'), '2001:db8:0:0::/64')
})
