import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import { listed, type Network, networkList } from './addresses.ts';

/** Whether the hop `hop` away from the hub (0: the socket's peer), at `address`, is a proxy to believe. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/**
 * The proxies the hub believes (ADR 0048): the peers in `proxies` when a list is given, the `hops` nearest
 * when a count is given, both conditions when both are. Undefined when neither is: X-Forwarded-For is then
 * ignored and the client is the socket's peer. Fastify reads `request.ip` with it; upgrades use
 * `clientAddress`, the same walk.
 */
export function proxyTrust(proxies: readonly Network[], hops: number | undefined): ProxyTrust | undefined {
  if (proxies.length === 0 && hops === undefined) return undefined;
  const list = networkList(proxies);
  return (address, hop) =>
    (proxies.length === 0 || listed(list, address)) && (hops === undefined || hop < hops);
}

/** The client of a raw request (a WebSocket upgrade) as `request.ip` is for routed ones. */
export const clientAddress = (request: IncomingMessage, trust: ProxyTrust | undefined): string =>
  trust ? proxyAddr(request, trust) : (request.socket.remoteAddress ?? '');
