import { describe, expect, it } from 'vitest';
import { listed, networkList, parseNetwork, specialPurpose } from './addresses.ts';

describe('special-purpose addresses', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.9.9.9', 'loopback'],
    ['[::1]', 'IPv6 loopback'],
    ['10.20.30.40', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['fd12:3456::1', 'unique-local'],
    ['100.64.0.1', 'CGNAT'],
    ['224.0.0.251', 'multicast'],
    ['ff02::1', 'IPv6 multicast'],
    ['0.0.0.0', 'unspecified'],
    ['::', 'IPv6 unspecified'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['[::ffff:a9fe:a9fe]', 'IPv4-mapped metadata, hex form'],
    ['64:ff9b::a00:1', 'NAT64 of a private address'],
    ['2002:c0a8:101::1', '6to4 of a private address'],
    ['255.255.255.255', 'broadcast'],
  ])('%s is special (%s)', (address) => {
    expect(listed(specialPurpose, address)).toBe(true);
  });

  it.each(['8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1'])(
    '%s is public',
    (address) => {
      expect(listed(specialPurpose, address)).toBe(false);
    },
  );
});

describe('parseNetwork', () => {
  it('reads CIDRs and single addresses of both families', () => {
    expect(parseNetwork('10.0.0.0/8')).toEqual({ address: '10.0.0.0', prefix: 8, family: 'ipv4' });
    expect(parseNetwork(' fd00::/8 ')).toEqual({ address: 'fd00::', prefix: 8, family: 'ipv6' });
    expect(parseNetwork('192.168.1.5')).toEqual({ address: '192.168.1.5', prefix: 32, family: 'ipv4' });
    expect(parseNetwork('::1')).toEqual({ address: '::1', prefix: 128, family: 'ipv6' });
  });

  it.each([
    '10.0.0.0/33',
    '::/129',
    'example.com',
    '10.0.0.0/',
    '10.0.0.0/8/8',
    '10.0.0.0/-1',
    '10.0.0.0/0x8',
    '',
  ])('refuses %j', (text) => {
    expect(parseNetwork(text)).toBeUndefined();
  });

  it('builds a list that matches inside its networks only', () => {
    const list = networkList(
      [parseNetwork('10.1.0.0/16'), parseNetwork('::1')].filter((n) => n !== undefined),
    );
    expect([
      listed(list, '10.1.2.3'),
      listed(list, '10.2.0.1'),
      listed(list, '[::1]'),
      listed(list, 'x'),
    ]).toEqual([true, false, true, false]);
  });
});
