import type { OptionSpec } from '@binnacle/common/server';
import { UsageError } from '@binnacle/common/server';
import { type Network, parseNetwork } from '../security/addresses.ts';
import { proxyTrust } from '../security/client-address.ts';

/** How the hub treats the network around it: which proxies tell it the client's address, what it may fetch. */
export interface NetworkSettings {
  /**
   * The proxies in front of the hub (ADR 0048): comma-separated CIDRs or addresses; in the config file also a
   * list. `X-Forwarded-For` is believed only from them; with none (and no hop count), it is ignored.
   */
  trustedProxies?: string | string[];
  /** How many proxies in front of the hub to believe, nearest first (with trustedProxies: at most that many of them). */
  trustedProxyHops?: number;
  /**
   * Networks the hub may fetch from for a caller (SSO discovery) although they are loopback, private,
   * link-local… (ADR 0049): comma-separated CIDRs or addresses; in the config file also a list.
   */
  outboundAllowedNetworks?: string | string[];
}

export const networkOptions: OptionSpec<NetworkSettings>[] = [
  {
    flag: 'trusted-proxies',
    key: 'trustedProxies',
    env: 'BINNACLE_TRUSTED_PROXIES',
    type: 'string',
    placeholder: 'CIDRS',
    help: 'comma-separated addresses or networks of the proxies in front of the hub (10.0.0.0/8, 127.0.0.1): their X-Forwarded-For names the client for rate limits and the audit log',
    defaultText: 'none: X-Forwarded-For is ignored',
  },
  {
    flag: 'trusted-proxy-hops',
    key: 'trustedProxyHops',
    env: 'BINNACLE_TRUSTED_PROXY_HOPS',
    type: 'integer',
    range: [1, 10],
    placeholder: 'N',
    help: 'believe X-Forwarded-For from this many proxies in front of the hub, nearest first; with --trusted-proxies, only from those (1-10)',
    defaultText: 'none',
  },
  {
    flag: 'outbound-allowed-networks',
    key: 'outboundAllowedNetworks',
    env: 'BINNACLE_OUTBOUND_ALLOWED_NETWORKS',
    type: 'string',
    placeholder: 'CIDRS',
    help: 'comma-separated networks (10.0.0.0/8, fd00::/8, 192.168.1.5) the hub may fetch from for callers (SSO discovery) although they are private, loopback or link-local',
    defaultText: 'none',
  },
];

/** A setting's networks; a UsageError naming the setting and the entry for anything that is not one. */
export function networksOf(value: string | string[] | undefined, setting: string): Network[] {
  if (value === undefined) return [];
  const entries = (Array.isArray(value) ? value : value.split(',')).map((entry) => String(entry).trim());
  return entries
    .filter((entry) => entry !== '')
    .map((entry) => {
      const network = parseNetwork(entry);
      if (!network)
        throw new UsageError(
          `${setting}: "${entry}" is not an IP address or a network in CIDR form (10.0.0.0/8, fd00::/8)`,
        );
      return network;
    });
}

/** Checked at boot, so a typo stops the hub with the setting's name instead of allowing or trusting nothing. */
export function validateNetwork<T extends NetworkSettings>(config: T): T {
  networksOf(config.trustedProxies, 'trustedProxies');
  networksOf(config.outboundAllowedNetworks, 'outboundAllowedNetworks');
  return config;
}

/** The proxy trust the settings describe (see `proxyTrust`). */
export const proxyTrustOf = (config: NetworkSettings) =>
  proxyTrust(networksOf(config.trustedProxies, 'trustedProxies'), config.trustedProxyHops);
