import { describe, expect, it } from 'vitest';
import {
  cidrContains,
  cidrRange,
  cidrStrictlyWithin,
  formatIp,
  type IpAddress,
  parseCidr,
  parseIp,
  splitCidr,
} from './cidr.ts';

const ip = (text: string) => {
  const parsed = parseIp(text);
  if (!parsed) throw new Error(`test address ${text} does not parse`);
  return parsed;
};
const cidr = (text: string) => {
  const parsed = parseCidr(text);
  if (!parsed) throw new Error(`test block ${text} does not parse`);
  return parsed;
};
const inBlock = (block: string, address: string) => cidrContains(cidr(block), ip(address));

describe('parseIp', () => {
  it.each([
    ['10.244.1.7', 4, 0x0af40107n],
    ['0.0.0.0', 4, 0n],
    ['255.255.255.255', 4, 0xffffffffn],
    ['::', 6, 0n],
    ['::1', 6, 1n],
    ['2001:db8::1', 6, 0x20010db8000000000000000000000001n],
    ['2001:DB8:0:0:0:0:0:1', 6, 0x20010db8000000000000000000000001n],
    ['fe80::1:2', 6, 0xfe800000000000000000000000010002n],
    ['1:2:3:4:5:6:7:8', 6, 0x00010002000300040005000600070008n],
    ['64:ff9b::192.0.2.33', 6, 0x0064ff9b0000000000000000c0000221n],
  ])('%s is IPv%s', (text, family, value) => {
    expect(parseIp(text)).toEqual({ family, value });
  });

  it('reads IPv4-mapped IPv6 addresses as the IPv4 address, in either spelling', () => {
    expect(parseIp('::ffff:10.0.0.1')).toEqual({ family: 4, value: 0x0a000001n });
    expect(parseIp('::ffff:a00:1')).toEqual({ family: 4, value: 0x0a000001n });
    expect(parseIp('0:0:0:0:0:ffff:10.0.0.1')).toEqual({ family: 4, value: 0x0a000001n });
  });

  it('keeps IPv4-compatible and NAT64 addresses IPv6: only ::ffff:0:0/96 maps', () => {
    expect(parseIp('::10.0.0.1')?.family).toBe(6);
    expect(parseIp('::fffe:10.0.0.1')?.family).toBe(6);
  });
});

describe('parseCidr and containment', () => {
  it('clears host bits as Go does, so podIP/4 is the /4 that holds the pod', () => {
    expect(cidr('10.244.1.1/4')).toEqual(cidr('0.0.0.0/4'));
    expect(inBlock('10.244.1.1/4', '15.255.255.255')).toBe(true);
    expect(inBlock('10.244.1.1/4', '16.0.0.0')).toBe(false);
  });

  // /0 holds its whole family and nothing of the other; /32 and /128 one address; prefixes stop at their end.
  const insideAndOutside: Record<string, [string, string]> = {
    '0.0.0.0/0': ['203.0.113.9', '2001:db8::1'],
    '::/0': ['2001:db8::1', '203.0.113.9'],
    '10.244.2.2/32': ['10.244.2.2', '10.244.2.3'],
    '2001:db8::5/128': ['2001:db8::5', '2001:db8::4'],
    '10.244.0.0/16': ['10.244.255.255', '10.245.0.0'],
  };
  it.each(Object.entries(insideAndOutside))(
    '%s holds the first address and not the second',
    (block, pair) => {
      expect(inBlock(block, pair[0])).toBe(true);
      expect(inBlock(block, pair[1])).toBe(false);
    },
  );

  it('an IPv4-mapped block of /96 or longer is the IPv4 block it maps', () => {
    expect(cidr('::ffff:10.0.0.0/104')).toEqual(cidr('10.0.0.0/8'));
    expect(inBlock('::ffff:10.0.0.0/104', '10.1.2.3')).toBe(true);
    expect(inBlock('::ffff:0.0.0.0/96', '192.0.2.1')).toBe(true);
    expect(inBlock('10.0.0.0/8', '::ffff:10.9.9.9')).toBe(true);
  });

  it('a shorter IPv4-mapped block is IPv6 only', () => {
    expect(cidr('::ffff:0:0/80').family).toBe(6);
    expect(inBlock('::ffff:0:0/80', '10.0.0.1')).toBe(false);
    expect(inBlock('::/64', '::ffff:10.0.0.1')).toBe(false);
  });
});

describe('cidrStrictlyWithin', () => {
  it('accepts a longer block inside and refuses an equal, wider, disjoint or other-family one', () => {
    expect(cidrStrictlyWithin(cidr('10.244.2.3/32'), cidr('10.244.0.0/16'))).toBe(true);
    expect(cidrStrictlyWithin(cidr('10.244.0.0/16'), cidr('10.244.0.0/16'))).toBe(false);
    expect(cidrStrictlyWithin(cidr('10.0.0.0/8'), cidr('10.244.0.0/16'))).toBe(false);
    expect(cidrStrictlyWithin(cidr('192.168.0.0/24'), cidr('10.0.0.0/8'))).toBe(false);
    expect(cidrStrictlyWithin(cidr('::/128'), cidr('0.0.0.0/0'))).toBe(false);
  });
});

describe('malformed input', () => {
  // Either parser answers undefined, never a half-read address: the caller turns that into a 400.
  const ips = ['', '10.0.0', '10.0.0.0.1', '10.0.0.256', '10.0.0.-1', '010.0.0.1', '10.0.0.1 ', '1.2.3.4/32'];
  const ipv6 = [
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7::8',
    '12345::1',
    'g::1',
  ];
  const odd = ['fe80::1%eth0', '::ffff:10.0.0.256', '::1.2.3.4:5', 'localhost'];
  const blocks = ['10.0.0.0', '10.0.0.0/', '10.0.0.0/33', '10.0.0.0/-1', '10.0.0.0/08', '10.0.0.0/8/8', '/8'];
  const blocks6 = ['2001:db8::/129', '::ffff:10.0.0.0/129', 'fe80::/10%eth0', '10.0.0.300/8'];
  const parsers = { parseIp, parseCidr };
  const cases = [
    ...[...ips, ...ipv6, ...odd].map((text) => ['parseIp', text] as const),
    ...[...blocks, ...blocks6].map((text) => ['parseCidr', text] as const),
  ];
  it.each(cases)('%s refuses %j', (parser, text) => {
    expect(parsers[parser](text)).toBeUndefined();
  });
});

describe('splitCidr, cidrRange and formatIp', () => {
  const cidr = (text: string) => {
    const parsed = parseCidr(text);
    if (!parsed) throw new Error(text);
    return parsed;
  };
  const text = (family: 4 | 6, parts: { first: bigint; last: bigint }[]) =>
    parts.map((p) => `${formatIp({ family, value: p.first })}-${formatIp({ family, value: p.last })}`);

  it('gives a block its first and last address', () => {
    const { first, last } = cidrRange(cidr('10.1.0.0/16'));
    expect([formatIp({ family: 4, value: first }), formatIp({ family: 4, value: last })]).toEqual([
      '10.1.0.0',
      '10.1.255.255',
    ]);
  });

  it('cuts a block where the other blocks begin and end, and nowhere else', () => {
    expect(text(4, splitCidr(cidr('10.0.0.0/8'), [cidr('10.1.0.0/16'), cidr('10.1.2.0/24')]))).toEqual([
      '10.0.0.0-10.0.255.255',
      '10.1.0.0-10.1.1.255',
      '10.1.2.0-10.1.2.255',
      '10.1.3.0-10.1.255.255',
      '10.2.0.0-10.255.255.255',
    ]);
  });

  it('leaves a block whole when the others contain it, miss it, or are of the other family', () => {
    const whole = ['192.168.1.0-192.168.1.255'];
    expect(text(4, splitCidr(cidr('192.168.1.0/24'), [cidr('192.168.0.0/16')]))).toEqual(whole);
    expect(text(4, splitCidr(cidr('192.168.1.0/24'), [cidr('10.0.0.0/8'), cidr('fd00::/8')]))).toEqual(whole);
    expect(text(4, splitCidr(cidr('192.168.1.0/24'), [cidr('192.168.1.0/24')]))).toEqual(whole);
  });

  it('prints IPv6 with the longest run of zero groups compressed', () => {
    const ip = (t: string) => formatIp(parseIp(t) as IpAddress);
    expect(ip('2001:db8:0:0:0:0:0:1')).toBe('2001:db8::1');
    expect(ip('fd00::')).toBe('fd00::');
    expect(ip('::1')).toBe('::1');
    expect(ip('2001:db8:0:1:0:0:0:0')).toBe('2001:db8:0:1::');
    expect(ip('1:2:3:4:5:6:7:8')).toBe('1:2:3:4:5:6:7:8');
    expect(ip('1:0:2:3:4:5:6:7')).toBe('1:0:2:3:4:5:6:7');
  });
});
