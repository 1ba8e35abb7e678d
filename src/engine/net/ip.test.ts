/**
 * net/ip against Go 1.19's net package (the toolchain Debian bookworm built the plugins with):
 * every expected value below was printed by a Go program calling net.ParseIP, net.ParseCIDR,
 * types.ParseCIDR, IP.String(), IsGlobalUnicast() and fmt's %v / %+v of a net.IPNet.
 */
import { describe, expect, it } from 'vitest';
import {
  cidrString,
  goIPNetValue,
  goIPNetValuePlus,
  ipNetString,
  ipString,
  isGlobalUnicast,
  isLoopback,
  networkOf,
  parseCIDR,
  parseIP,
} from './ip';

// [input, Go's String() of net.ParseIP(input) (null = nil), To4() != nil ? 4 : 6]
const PARSE_IP: Array<[string, string | null, 4 | 6 | null]> = [
  ['1.2.3.4', '1.2.3.4', 4],
  ['0.0.0.0', '0.0.0.0', 4],
  ['255.255.255.255', '255.255.255.255', 4],
  ['01.2.3.4', null, null],
  ['1.2.3.04', null, null],
  ['1.2.3.00', null, null],
  ['256.1.1.1', null, null],
  ['1.2.3', null, null],
  ['1.2.3.4.5', null, null],
  [' 1.2.3.4', null, null],
  ['1.2.3.4 ', null, null],
  ['1.2.3.4%eth0', null, null],
  ['', null, null],
  ['::ffff:1.2.3.4', '1.2.3.4', 4],
  ['::FFFF:1.2.3.4', '1.2.3.4', 4],
  ['0:0:0:0:0:ffff:102:304', '1.2.3.4', 4],
  ['::ffff:0102:0304', '1.2.3.4', 4],
  ['::1.2.3.4', '::102:304', 6],
  ['64:ff9b::1.2.3.4', '64:ff9b::102:304', 6],
  ['::ffff:01.2.3.4', null, null],
  ['::ffff:1.2.3.4.5', null, null],
  ['::ffff:1.2.3', null, null],
  ['fe80::1%eth0', null, null],
  ['fe80::a%1', null, null],
  ['2001:0db8:0000:0000:0000:0000:0000:0001', '2001:db8::1', 6],
  ['2001:DB8::1', '2001:db8::1', 6],
  ['2001:db8:0:0:1:0:0:1', '2001:db8::1:0:0:1', 6],
  ['2001:db8:0:1:0:0:0:1', '2001:db8:0:1::1', 6],
  ['2001:db8:0:1:1:1:1:1', '2001:db8:0:1:1:1:1:1', 6],
  ['2001:db8::0:1', '2001:db8::1', 6],
  ['::', '::', 6],
  ['::1', '::1', 6],
  ['1::', '1::', 6],
  ['1:2:3:4:5:6:7::', '1:2:3:4:5:6:7:0', 6],
  ['::2:3:4:5:6:7:8', '0:2:3:4:5:6:7:8', 6],
  ['1:2:3:4:5:6:7:8:9', null, null],
  [':::1', null, null],
  ['1::2::3', null, null],
  ['00001::1', '1::1', 6],
  ['0001::1', '1::1', 6],
  ['fe80::', 'fe80::', 6],
  ['ff02::1', 'ff02::1', 6],
  ['[::1]', null, null],
  ['1:2:3:4:5:6:1.2.3.4', '1:2:3:4:5:6:102:304', 6],
  ['1:2:3:4:5:6:7:1.2.3.4', null, null],
  ['abcd::efgh', null, null],
  ['1.2.3.4:80', null, null],
];

type CidrCase = { error: string } | { kept: string; net: string; value: string; valuePlus: string };

// [input, net.ParseCIDR / types.ParseCIDR outcome]
const PARSE_CIDR: Array<[string, CidrCase]> = [
  [
    '10.0.0.1/24',
    {
      kept: '10.0.0.1/24',
      net: '10.0.0.0/24',
      value: '{10.0.0.0 ffffff00}',
      valuePlus: '{IP:10.0.0.0 Mask:ffffff00}',
    },
  ],
  [
    '10.0.0.0/8',
    {
      kept: '10.0.0.0/8',
      net: '10.0.0.0/8',
      value: '{10.0.0.0 ff000000}',
      valuePlus: '{IP:10.0.0.0 Mask:ff000000}',
    },
  ],
  [
    '0.0.0.0/0',
    {
      kept: '0.0.0.0/0',
      net: '0.0.0.0/0',
      value: '{0.0.0.0 00000000}',
      valuePlus: '{IP:0.0.0.0 Mask:00000000}',
    },
  ],
  [
    '10.0.0.0/32',
    {
      kept: '10.0.0.0/32',
      net: '10.0.0.0/32',
      value: '{10.0.0.0 ffffffff}',
      valuePlus: '{IP:10.0.0.0 Mask:ffffffff}',
    },
  ],
  ['10.0.0.0/33', { error: 'invalid CIDR address: 10.0.0.0/33' }],
  ['10.0.0.0', { error: 'invalid CIDR address: 10.0.0.0' }],
  ['10.0.0.0/', { error: 'invalid CIDR address: 10.0.0.0/' }],
  ['10.0.0.0/-1', { error: 'invalid CIDR address: 10.0.0.0/-1' }],
  ['10.0.0.0/+8', { error: 'invalid CIDR address: 10.0.0.0/+8' }],
  [
    '10.0.0.0/08',
    {
      kept: '10.0.0.0/8',
      net: '10.0.0.0/8',
      value: '{10.0.0.0 ff000000}',
      valuePlus: '{IP:10.0.0.0 Mask:ff000000}',
    },
  ],
  ['10.0.0.0/8 ', { error: 'invalid CIDR address: 10.0.0.0/8 ' }],
  ['010.0.0.0/8', { error: 'invalid CIDR address: 010.0.0.0/8' }],
  ['10.0.0.0/ 8', { error: 'invalid CIDR address: 10.0.0.0/ 8' }],
  ['/24', { error: 'invalid CIDR address: /24' }],
  [
    '2001:db8::1/64',
    {
      kept: '2001:db8::1/64',
      net: '2001:db8::/64',
      value: '{2001:db8:: ffffffffffffffff0000000000000000}',
      valuePlus: '{IP:2001:db8:: Mask:ffffffffffffffff0000000000000000}',
    },
  ],
  [
    '2001:DB8:0:0::/48',
    {
      kept: '2001:db8::/48',
      net: '2001:db8::/48',
      value: '{2001:db8:: ffffffffffff00000000000000000000}',
      valuePlus: '{IP:2001:db8:: Mask:ffffffffffff00000000000000000000}',
    },
  ],
  [
    '::/0',
    {
      kept: '::/0',
      net: '::/0',
      value: '{:: 00000000000000000000000000000000}',
      valuePlus: '{IP::: Mask:00000000000000000000000000000000}',
    },
  ],
  [
    '::1/128',
    {
      kept: '::1/128',
      net: '::1/128',
      value: '{::1 ffffffffffffffffffffffffffffffff}',
      valuePlus: '{IP:::1 Mask:ffffffffffffffffffffffffffffffff}',
    },
  ],
  ['::1/129', { error: 'invalid CIDR address: ::1/129' }],
  ['fe80::1%eth0/64', { error: 'invalid CIDR address: fe80::1%eth0/64' }],
  ['10.0.0.1/24/1', { error: 'invalid CIDR address: 10.0.0.1/24/1' }],
  [
    '2001:db8::/0064',
    {
      kept: '2001:db8::/64',
      net: '2001:db8::/64',
      value: '{2001:db8:: ffffffffffffffff0000000000000000}',
      valuePlus: '{IP:2001:db8:: Mask:ffffffffffffffff0000000000000000}',
    },
  ],
];

describe('parseIP (Go net.ParseIP)', () => {
  it.each(PARSE_IP)('%j -> %j', (input, want, family) => {
    const ip = parseIP(input);
    if (want === null) {
      expect(ip).toBeNull();
      return;
    }
    expect(ip).not.toBeNull();
    expect(ipString(ip!)).toBe(want);
    expect(ip!.v).toBe(family);
  });
});

describe('parseCIDR (Go net.ParseCIDR, types.ParseCIDR keeps the address)', () => {
  it.each(PARSE_CIDR)('%j', (input, want) => {
    const r = parseCIDR(input);
    if ('error' in want) {
      expect(r).toEqual({ ok: false, error: want.error });
      return;
    }
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(ipNetString(r.net)).toBe(want.kept);
    expect(cidrString(r.net)).toBe(want.net);
    const network = { ip: networkOf(r.net), prefix: r.net.prefix };
    expect(goIPNetValue(network)).toBe(want.value);
    expect(goIPNetValuePlus(network)).toBe(want.valuePlus);
  });

  it('an IPv4-mapped IPv6 CIDR is the IPv4 network with the mask shortened by 96 bits', () => {
    // Go: net.ParseCIDR("::ffff:10.0.0.1/120") -> 10.0.0.1, 10.0.0.0/24; types.ParseCIDR keeps 10.0.0.1/24.
    const r = parseCIDR('::ffff:10.0.0.1/120');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(ipNetString(r.net)).toBe('10.0.0.1/24');
    expect(cidrString(r.net)).toBe('10.0.0.0/24');
  });
});

describe('net.IP predicates', () => {
  // [address, IsGlobalUnicast(), IsLoopback()] as Go 1.19 answers.
  const CASES: Array<[string, boolean, boolean]> = [
    ['240.0.0.1', true, false],
    ['224.0.0.1', false, false],
    ['239.255.255.255', false, false],
    ['169.254.1.1', false, false],
    ['127.0.0.1', false, true],
    ['0.0.0.0', false, false],
    ['255.255.255.255', false, false],
    ['10.0.0.1', true, false],
    ['::ffff:127.0.0.1', false, true],
    ['fe80::1', false, false],
    ['febf::1', false, false],
    ['fec0::1', true, false],
    ['ff02::1', false, false],
    ['::', false, false],
    ['::1', false, true],
    ['2001:db8::1', true, false],
  ];
  it.each(CASES)('%s: global unicast %s, loopback %s', (s, gu, lo) => {
    const ip = parseIP(s)!;
    expect(isGlobalUnicast(ip)).toBe(gu);
    expect(isLoopback(ip)).toBe(lo);
  });
});
