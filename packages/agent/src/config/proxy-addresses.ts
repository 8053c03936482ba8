import { BlockList, isIP } from 'node:net';
import { UsageError } from '@binnacle/common/server';

/** `::ffff:10.0.0.1` (an IPv4 peer on a dual-stack socket) is 10.0.0.1. */
export const plainAddress = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/** `10.0.0.5, 10.1.0.0/16, fd00::/8` as a block list; anything else is a UsageError naming the setting. */
export function proxyAddresses(list: string, setting = '--auth-proxy-addresses'): BlockList {
  const blocks = new BlockList();
  const entries = list
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0)
    throw new UsageError(`${setting}: proxy mode needs the addresses of the trusted proxies`);
  for (const entry of entries) {
    const [address = '', bits, extra] = entry.split('/');
    const family = isIP(plainAddress(address));
    const prefix = Number(bits);
    const max = family === 6 ? 128 : 32;
    if (
      family === 0 ||
      extra !== undefined ||
      (bits !== undefined && (!/^\d+$/.test(bits) || prefix > max))
    ) {
      throw new UsageError(`${setting}: "${entry}" is not an IP address or CIDR`);
    }
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) blocks.addAddress(plainAddress(address), type);
    else blocks.addSubnet(plainAddress(address), prefix, type);
  }
  return blocks;
}
