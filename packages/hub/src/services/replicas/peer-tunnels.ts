import { once } from 'node:events';
import http2, { type ClientHttp2Session, type ClientHttp2Stream, type OutgoingHttpHeaders } from 'node:http2';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Clock } from '../../security/clock.ts';
import { type PeerTokens, peerClusterHeader, peerHeader } from './peer-token.ts';

/** A replica that does not accept a connection within this is taken for dead. */
const connectTimeoutMs = 1_000;

/** What a tunneled request needs of a tunnel: this replica's own, or a relay through the replica holding it. */
export interface TunnelEnd {
  readonly open: boolean;
  /** Through another replica's relay (a stream lost with that replica may be sent again). */
  readonly relayed?: boolean;
  request(headers: OutgoingHttpHeaders, options?: { endStream?: boolean }): ClientHttp2Stream;
  connect(): ClientHttp2Stream;
}

/**
 * One HTTP/2 session per other replica, made when first needed and again after it drops; a cluster whose
 * tunnel another replica holds is reached through that replica's relay with the same stream interface as a
 * local tunnel, so proxying, upgrades and fan-out calls do not care where the agent is connected.
 */
export class PeerTunnels {
  readonly #sessions = new Map<string, ClientHttp2Session>();
  readonly #connecting = new WeakMap<ClientHttp2Session, Promise<boolean>>();
  readonly #tokens: PeerTokens;
  readonly #clock: Clock;

  constructor(tokens: PeerTokens, clock: Clock) {
    this.#tokens = tokens;
    this.#clock = clock;
  }

  /** The tunnel of `clusterId` through the replica at `replicaUrl`. */
  through(replicaUrl: string, clusterId: string): TunnelEnd {
    const session = this.#session(replicaUrl);
    const peer = () => ({
      [peerHeader]: this.#tokens.sign(clusterId, this.#clock.now().getTime()),
      [peerClusterHeader]: clusterId,
    });
    // A relayed stream that fails (the holder died: ECONNRESET; it no longer holds the tunnel: REFUSED_STREAM)
    // ends as a dropped local tunnel's streams do, closed without an answer (502 cluster_disconnected), never
    // with an 'error' event, which the proxy's wait for the answer would turn into a 500 internal_error.
    const open = (stream: ClientHttp2Stream) => {
      const emit = stream.emit.bind(stream);
      stream.emit = ((event: string | symbol, ...args: unknown[]) =>
        event === 'error' ? false : emit(event, ...args)) as ClientHttp2Stream['emit'];
      return stream;
    };
    return {
      relayed: true,
      get open() {
        return !session.destroyed && !session.closed;
      },
      request: (headers, options = {}) =>
        open(session.request({ ...headers, ...peer() }, { endStream: options.endStream ?? false })),
      connect: () => open(session.request({ ':method': 'CONNECT', ':authority': 'agent.tunnel', ...peer() })),
    };
  }

  /** Whether the replica at `replicaUrl` accepts a session now (a dead replica's claims outlive it by ≤ 30 s). */
  async reachable(replicaUrl: string): Promise<boolean> {
    const session = this.#session(replicaUrl);
    if (!session.connecting) return !session.destroyed && !session.closed;
    // The requests waiting on one connecting session share one wait, not a set of listeners each.
    let connecting = this.#connecting.get(session);
    if (!connecting) {
      connecting = Promise.race([
        // `once` rejects when 'error' comes first (ECONNREFUSED from a dead replica): that is a no, not a throw.
        once(session, 'connect').then(
          () => true,
          () => false,
        ),
        once(session, 'close').then(
          () => false,
          () => false,
        ),
        sleep(connectTimeoutMs).then(() => false),
      ]).then((settled) => {
        if (!settled) session.destroy();
        return settled;
      });
      this.#connecting.set(session, connecting);
    }
    return connecting;
  }

  closeAll(): void {
    for (const session of this.#sessions.values()) session.destroy();
    this.#sessions.clear();
  }

  #session(replicaUrl: string): ClientHttp2Session {
    const existing = this.#sessions.get(replicaUrl);
    if (existing && !existing.destroyed && !existing.closed) return existing;
    const session = http2.connect(replicaUrl, { peerMaxConcurrentStreams: 10_000 });
    session.on('error', () => session.destroy());
    session.on('close', () => {
      if (this.#sessions.get(replicaUrl) === session) this.#sessions.delete(replicaUrl);
    });
    // Idle sessions must not keep a stopping hub alive.
    session.unref();
    this.#sessions.set(replicaUrl, session);
    return session;
  }
}
