import type { TunnelClient } from '@binnacle/tunnel';

export interface LiveTunnel {
  client: TunnelClient;
  clusterId: string;
  /** SHA-256 of the token the agent connected with: the key that signs forwarded identities. */
  tokenHash: string;
  agentVersion: string | null;
  connectedAt: Date;
}

/**
 * The tunnels this hub process holds, one per cluster: a newer connection of the same cluster replaces the
 * older one (closed with 4000), and rotating or deleting a cluster's token closes its tunnel (4001).
 */
export class TunnelRegistry {
  readonly #tunnels = new Map<string, LiveTunnel>();

  add(tunnel: LiveTunnel): void {
    this.#tunnels.get(tunnel.clusterId)?.client.close(4000, 'superseded by a newer connection');
    this.#tunnels.set(tunnel.clusterId, tunnel);
    void tunnel.client.closed.then(() => {
      if (this.#tunnels.get(tunnel.clusterId) === tunnel) this.#tunnels.delete(tunnel.clusterId);
    });
  }

  get(clusterId: string): LiveTunnel | undefined {
    const tunnel = this.#tunnels.get(clusterId);
    return tunnel?.client.open ? tunnel : undefined;
  }

  disconnect(clusterId: string, reason: string): void {
    this.#tunnels.get(clusterId)?.client.close(4001, reason);
    this.#tunnels.delete(clusterId);
  }

  get size(): number {
    return this.#tunnels.size;
  }

  closeAll(): void {
    for (const tunnel of this.#tunnels.values()) tunnel.client.close(1001, 'hub stopping');
    this.#tunnels.clear();
  }
}
