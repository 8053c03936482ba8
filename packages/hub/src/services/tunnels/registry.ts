import type { TunnelClient } from '@binnacle/tunnel';

export interface LiveTunnel {
  client: TunnelClient;
  clusterId: string;
  /** SHA-256 of the token the agent connected with: the key that signs forwarded identities. */
  tokenHash: string;
  agentVersion: string | null;
  connectedAt: Date;
}

/** Where the replicas of a hub record which one holds each tunnel (Redis; absent for a single hub). */
export interface TunnelDirectory {
  claim(clusterId: string): Promise<void>;
  release(clusterId: string): Promise<void>;
  announceDisconnect(clusterId: string, reason: string): void;
}

/**
 * The tunnels this hub process holds, one per cluster: a newer connection of the same cluster replaces the
 * older one (closed with 4000), and rotating or deleting a cluster's token closes its tunnel (4001) — on
 * whichever replica holds it.
 */
export class TunnelRegistry {
  readonly #tunnels = new Map<string, LiveTunnel>();
  #directory: TunnelDirectory | undefined;

  /** From now on, tunnels are claimed in (and released from) the replicas' shared directory. */
  shareWith(directory: TunnelDirectory): void {
    this.#directory = directory;
  }

  add(tunnel: LiveTunnel): void {
    this.#tunnels.get(tunnel.clusterId)?.client.close(4000, 'superseded by a newer connection');
    this.#tunnels.set(tunnel.clusterId, tunnel);
    void this.#directory?.claim(tunnel.clusterId);
    void tunnel.client.closed.then(() => {
      if (this.#tunnels.get(tunnel.clusterId) !== tunnel) return;
      this.#tunnels.delete(tunnel.clusterId);
      void this.#directory?.release(tunnel.clusterId);
    });
  }

  get(clusterId: string): LiveTunnel | undefined {
    const tunnel = this.#tunnels.get(clusterId);
    return tunnel?.client.open ? tunnel : undefined;
  }

  /** Closes the cluster's tunnel here and on every other replica. */
  disconnect(clusterId: string, reason: string): void {
    this.disconnectHere(clusterId, reason);
    this.#directory?.announceDisconnect(clusterId, reason);
  }

  disconnectHere(clusterId: string, reason: string): void {
    const tunnel = this.#tunnels.get(clusterId);
    if (!tunnel) return;
    tunnel.client.close(4001, reason);
    this.#tunnels.delete(clusterId);
    void this.#directory?.release(clusterId);
  }

  get size(): number {
    return this.#tunnels.size;
  }

  closeAll(): void {
    for (const tunnel of this.#tunnels.values()) tunnel.client.close(1001, 'hub stopping');
    this.#tunnels.clear();
  }
}
