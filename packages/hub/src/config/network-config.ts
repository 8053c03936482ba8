import type { OptionSpec } from '@binnacle/common/server';
import { UsageError } from '@binnacle/common/server';
import { type Network, parseNetwork } from '../security/addresses.ts';

/** How the hub treats the network around it: what it may fetch for callers. */
export interface NetworkSettings {
  /**
   * Networks the hub may fetch from for a caller (SSO discovery) although they are loopback, private,
   * link-local… (ADR 0050): comma-separated CIDRs or addresses; in the config file also a list.
   */
  outboundAllowedNetworks?: string | string[];
}

export const networkOptions: OptionSpec<NetworkSettings>[] = [
  {
    flag: 'outbound-allowed-networks',
    key: 'outboundAllowedNetworks',
    env: 'BINNACLE_OUTBOUND_ALLOWED_NETWORKS',
    type: 'string',
    placeholder: 'CIDRS',
    help: 'comma-separated networks (10.0.0.0/8, fd00::/8, 192.168.1.5) the hub may fetch from for callers (SSO discovery) although they are private, loopback or link-local (default none)',
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
  networksOf(config.outboundAllowedNetworks, 'outboundAllowedNetworks');
  return config;
}
