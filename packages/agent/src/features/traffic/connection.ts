import type { KubeObject } from '@binnacle/common';
import { PortForwards } from '../../scope/portforward/forwards.ts';
import type { HubbleClient } from './hubble-client.ts';
import type { TrafficContext } from './module.ts';

export type Via = 'flag' | 'request' | 'dns' | 'port-forward';

export interface ConnectionState {
  source: 'hubble';
  status: 'connected' | 'disconnected' | 'error';
  available: boolean;
  address?: string;
  via?: Via;
  /** Cilium/Hubble version the relay reports. */
  version?: string;
  /** Why it is not connected. */
  reason?: string;
  /** Every address the last connect tried, in order, with what went wrong. */
  tried: { address: string; via: Via; error?: string }[];
  checkedAt?: string;
}

const firstPort = (service: KubeObject) =>
  Number((service.spec?.ports as { port?: number }[] | undefined)?.[0]?.port ?? 80);

/**
 * gRPC and protobuf are a tenth of the agent's code and only a Hubble relay needs them: loaded at the first connect,
 * not at every start (docs/adr/0113-idle-collection-and-a-lighter-start.md).
 */
const hubbleClientClass = async () => (await import('./hubble-client.ts')).HubbleClient;

const describe = (error: unknown) =>
  error instanceof Error ? error.message.replace(/\s+/g, ' ').slice(0, 300) : String(error);

/**
 * The agent's link to a Hubble relay. Candidates, in order: an address given in the request or by
 * `--hubble-address`, else the relay Service by in-cluster DNS (in a cluster) or through a port-forward of the
 * agent's own forwarder (on a desktop). The first that answers ServerStatus is kept.
 */
export class HubbleConnection {
  readonly #ctx: TrafficContext;
  readonly #forwards: PortForwards;
  #forwardId?: string;
  #client?: HubbleClient;
  #state: ConnectionState = { source: 'hubble', status: 'disconnected', available: false, tried: [] };
  #connecting?: Promise<ConnectionState>;
  /** The address a POST /api/traffic/connect last reached: reconnects go there again, before the flag. */
  #requested?: string;

  constructor(ctx: TrafficContext) {
    this.#ctx = ctx;
    this.#forwards = new PortForwards(ctx);
    // A relay reached in one context's cluster is not the next one's: after a switch the next use connects again.
    ctx.connection.bind(() => () => {
      this.#drop();
      this.#state = { source: 'hubble', status: 'disconnected', available: false, tried: [] };
    });
  }

  get state(): ConnectionState {
    return { ...this.#state, tried: [...this.#state.tried] };
  }

  /** The connected client, connecting first (once at a time) when there is none. */
  async client(relay: KubeObject | undefined): Promise<HubbleClient | undefined> {
    if (!this.#client) await this.connect(relay);
    return this.#client;
  }

  /** Called when a call on the connected client failed: the next use connects again. */
  failed(error: unknown): void {
    this.#drop();
    this.#state = { ...this.#state, status: 'error', available: false, reason: describe(error) };
  }

  connect(relay: KubeObject | undefined, address?: string): Promise<ConnectionState> {
    this.#connecting ??= this.#connect(relay, address).finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  async #connect(relay: KubeObject | undefined, address?: string): Promise<ConnectionState> {
    this.#drop();
    const tried: ConnectionState['tried'] = [];
    const candidates: { via: Via; address: () => Promise<string> }[] = [];
    const requested = address ?? this.#requested;
    const explicit = requested ?? this.#ctx.config.hubbleAddress;
    if (explicit)
      candidates.push({ via: requested ? 'request' : 'flag', address: () => Promise.resolve(explicit) });
    else if (relay && this.#ctx.mode === 'in-cluster') {
      const dns = `${relay.metadata?.name}.${relay.metadata?.namespace}.svc:${firstPort(relay)}`;
      candidates.push({ via: 'dns', address: () => Promise.resolve(dns) });
    } else if (relay) {
      candidates.push({ via: 'port-forward', address: () => this.#portForward(relay) });
    }
    for (const candidate of candidates) {
      let target = `${relay?.metadata?.namespace}/${relay?.metadata?.name} (port-forward)`;
      try {
        target = await candidate.address();
        const client = new (await hubbleClientClass())(target);
        try {
          const status = await client.status();
          tried.push({ address: target, via: candidate.via });
          this.#client = client;
          if (address) this.#requested = address;
          this.#state = {
            source: 'hubble',
            status: 'connected',
            available: true,
            address: target,
            via: candidate.via,
            ...(status.version ? { version: status.version } : {}),
            tried,
            checkedAt: new Date().toISOString(),
          };
          return this.state;
        } catch (error) {
          client.close();
          throw error;
        }
      } catch (error) {
        tried.push({ address: target, via: candidate.via, error: describe(error) });
        this.#stopForward();
      }
    }
    const reason =
      candidates.length === 0
        ? 'no Hubble relay to connect to: no hubble-relay Service in the cluster and no --hubble-address'
        : `no Hubble relay answered: ${tried.map((t) => `${t.address} (${t.via}): ${t.error}`).join('; ')}`;
    this.#state = {
      source: 'hubble',
      status: 'error',
      available: false,
      reason,
      tried,
      checkedAt: new Date().toISOString(),
    };
    return this.state;
  }

  async #portForward(relay: KubeObject): Promise<string> {
    const forward = await this.#forwards.create({
      namespace: relay.metadata?.namespace ?? '',
      service: relay.metadata?.name ?? '',
      port: firstPort(relay),
    });
    this.#forwardId = forward.id;
    return `127.0.0.1:${forward.localPort}`;
  }

  #stopForward(): void {
    if (this.#forwardId) this.#forwards.delete(this.#forwardId);
    this.#forwardId = undefined;
  }

  #drop(): void {
    this.#client?.close();
    this.#client = undefined;
    this.#stopForward();
  }

  close(): void {
    this.#drop();
    this.#forwards.close();
  }
}
