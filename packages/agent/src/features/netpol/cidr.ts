/** An IP address as a number: 32 bits for IPv4, 128 for IPv6. */
export interface IpAddress {
  family: 4 | 6;
  value: bigint;
}

/** A CIDR block with its host bits cleared. */
export interface Cidr {
  family: 4 | 6;
  prefix: number;
  base: bigint;
}

const widthOf = (family: 4 | 6) => (family === 4 ? 32 : 128);

function maskOf(family: 4 | 6, prefix: number): bigint {
  const width = widthOf(family);
  return ((1n << BigInt(prefix)) - 1n) << BigInt(width - prefix);
}

// Leading zeros are refused rather than read as decimal or octal: the two readings disagree, so an address
// written that way is ambiguous (Go's net.ParseIP refuses it too).
function parseIpv4(text: string): bigint | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0n;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return undefined;
    value = (value << 8n) | BigInt(part);
  }
  return value;
}

function parseGroups(text: string): bigint[] | undefined {
  if (text === '') return [];
  const groups: bigint[] = [];
  const parts = text.split(':');
  for (const [i, part] of parts.entries()) {
    if (i === parts.length - 1 && part.includes('.')) {
      const v4 = parseIpv4(part);
      if (v4 === undefined) return undefined;
      groups.push(v4 >> 16n, v4 & 0xffffn);
    } else if (/^[0-9a-fA-F]{1,4}$/.test(part)) groups.push(BigInt(`0x${part}`));
    else return undefined;
  }
  return groups;
}

function parseIpv6(text: string): bigint | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const head = parseGroups(halves[0] ?? '');
  const tail = halves.length === 2 ? parseGroups(halves[1] ?? '') : [];
  if (!head || !tail) return undefined;
  const missing = 8 - head.length - tail.length;
  if (halves.length === 2 ? missing < 1 : missing !== 0) return undefined;
  const groups = [...head, ...Array<bigint>(missing).fill(0n), ...tail];
  return groups.reduce((value, group) => (value << 16n) | group, 0n);
}

/** Parses an address as written, keeping an IPv6-written address IPv6 even when it maps an IPv4 one. */
function parseWritten(text: string): IpAddress | undefined {
  if (text.includes(':')) {
    const value = parseIpv6(text);
    return value === undefined ? undefined : { family: 6, value };
  }
  const value = parseIpv4(text);
  return value === undefined ? undefined : { family: 4, value };
}

const isMapped = (ip: IpAddress) => ip.family === 6 && ip.value >> 32n === 0xffffn;

/**
 * Parses an IPv4 or IPv6 address; undefined when it is not one. An IPv4-mapped IPv6 address
 * (`::ffff:10.0.0.1`) is the IPv4 address it maps, as Go's net.IP.To4 (and so Kubernetes) treats it.
 * Zones (`fe80::1%eth0`) are refused: pod and ipBlock addresses never carry one.
 */
export function parseIp(text: string): IpAddress | undefined {
  const ip = parseWritten(text);
  if (!ip) return undefined;
  return isMapped(ip) ? { family: 4, value: ip.value & 0xffffffffn } : ip;
}

/**
 * Parses `address/prefix`; undefined when malformed. Host bits are cleared, as Go's net.ParseCIDR does (the
 * upstream e2e suite itself writes `podIP/4`). An IPv4-mapped block of prefix 96 or more is the IPv4 block it
 * maps; a shorter one covers IPv6 addresses only, again as Go decides.
 */
export function parseCidr(text: string): Cidr | undefined {
  const match = /^([^/]+)\/(0|[1-9]\d{0,2})$/.exec(text);
  if (!match) return undefined;
  const ip = parseWritten(match[1] as string);
  let prefix = Number(match[2]);
  if (!ip || prefix > widthOf(ip.family)) return undefined;
  if (isMapped(ip) && prefix >= 96) {
    prefix -= 96;
    return { family: 4, prefix, base: ip.value & 0xffffffffn & maskOf(4, prefix) };
  }
  return { family: ip.family, prefix, base: ip.value & maskOf(ip.family, prefix) };
}

/** Whether an address lies in a block; never across families. */
export function cidrContains(cidr: Cidr, ip: IpAddress): boolean {
  return cidr.family === ip.family && (ip.value & maskOf(cidr.family, cidr.prefix)) === cidr.base;
}

/** Whether `inner` is a strict subset of `outer`, which is what the API demands of an ipBlock's except. */
export function cidrStrictlyWithin(inner: Cidr, outer: Cidr): boolean {
  return (
    inner.family === outer.family &&
    inner.prefix > outer.prefix &&
    cidrContains(outer, { family: inner.family, value: inner.base })
  );
}

/** The first and last address of a block. */
export function cidrRange(cidr: Cidr): { first: bigint; last: bigint } {
  const size = 1n << BigInt(widthOf(cidr.family) - cidr.prefix);
  return { first: cidr.base, last: cidr.base + size - 1n };
}

/** An address as Go prints it: dotted IPv4, or IPv6 with its longest run of zero groups (two or more) as `::`. */
export function formatIp(ip: IpAddress): string {
  if (ip.family === 4)
    return [24n, 16n, 8n, 0n].map((shift) => String((ip.value >> shift) & 0xffn)).join('.');
  const groups = Array.from({ length: 8 }, (_, i) => (ip.value >> BigInt(112 - i * 16)) & 0xffffn);
  let best = { at: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    let j = i;
    while (j < 8 && groups[j] === 0n) j += 1;
    if (j - i > best.length) best = { at: i, length: j - i };
    i = j === i ? i + 1 : j;
  }
  const hex = (part: bigint[]) => part.map((g) => g.toString(16)).join(':');
  if (best.at < 0) return hex(groups);
  return `${hex(groups.slice(0, best.at))}::${hex(groups.slice(best.at + best.length))}`;
}

/**
 * Splits a block where any of `blocks` (of its family) begins or ends, so that every block holds either all of
 * a part or none of it: judging one address of each part judges the whole part.
 */
export function splitCidr(block: Cidr, blocks: Cidr[]): { first: bigint; last: bigint }[] {
  const { first, last } = cidrRange(block);
  const cuts = new Set<bigint>([first]);
  for (const other of blocks) {
    if (other.family !== block.family) continue;
    const range = cidrRange(other);
    if (range.first > first && range.first <= last) cuts.add(range.first);
    if (range.last >= first && range.last < last) cuts.add(range.last + 1n);
  }
  const starts = [...cuts].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return starts.map((start, i) => ({
    first: start,
    last: i + 1 < starts.length ? (starts[i + 1] as bigint) - 1n : last,
  }));
}
