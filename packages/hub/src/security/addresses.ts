import { BlockList, isIP } from 'node:net';

/** A network written `address/prefix`, or one address (a /32 or /128). */
export interface Network {
  address: string;
  prefix: number;
  family: 'ipv4' | 'ipv6';
}

/** An address as a socket or a URL shows it: without IPv6 brackets or zone (`[fe80::1%eth0]` → `fe80::1`). */
export const bareAddress = (address: string) => address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');

/** `10.0.0.0/8`, `fd00::/8` or a single address; undefined when it is neither. */
export function parseNetwork(text: string): Network | undefined {
  const [address = '', prefixText, ...extra] = text.trim().split('/');
  const version = isIP(address);
  if (version === 0 || extra.length > 0) return undefined;
  const max = version === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!/^\d{1,3}$/.test(prefixText ?? String(max)) || prefix > max) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

export function networkList(networks: readonly Network[]): BlockList {
  const list = new BlockList();
  for (const network of networks) list.addSubnet(network.address, network.prefix, network.family);
  return list;
}

/** Whether an address (as a socket or a URL shows it) is in the list; IPv4-mapped IPv6 matches IPv4 entries. */
export function listed(list: BlockList, address: string): boolean {
  const bare = bareAddress(address);
  const version = isIP(bare);
  return version !== 0 && list.check(bare, version === 4 ? 'ipv4' : 'ipv6');
}

/** IPv4 networks no fetch a caller asks for may reach: RFC 6890 special-purpose and private ranges. */
const specialIpv4: [string, number][] = [
  ['0.0.0.0', 8], // "this network", the unspecified address
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT (shared address space)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

/** IPv6 networks likewise; IPv4-mapped addresses (`::ffff:a.b.c.d`) are judged by the IPv4 list. */
const specialIpv6: [string, number][] = [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['fc00::', 7], // unique-local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
];

const hex = (ipv4: string) =>
  ipv4
    .split('.')
    .map((octet) => Number(octet).toString(16).padStart(2, '0'))
    .join('')
    .replace(/^(.{4})/, '$1:');

/**
 * Every special-purpose network, with the IPv4 ones also as they appear inside NAT64 (`64:ff9b::/96`) and
 * 6to4 (`2002::/16`) addresses, which a translator turns back into the IPv4 address.
 */
export const specialPurpose: BlockList = networkList([
  ...specialIpv4.flatMap(([address, prefix]): Network[] => [
    { address, prefix, family: 'ipv4' },
    { address: `64:ff9b::${hex(address)}`, prefix: 96 + prefix, family: 'ipv6' },
    { address: `2002:${hex(address)}::`, prefix: 16 + prefix, family: 'ipv6' },
  ]),
  ...specialIpv6.map(([address, prefix]): Network => ({ address, prefix, family: 'ipv6' })),
]);
