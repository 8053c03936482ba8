import http2, { type ClientHttp2Session, type ClientHttp2Stream, type OutgoingHttpHeaders } from 'node:http2';
import type { Duplex } from 'node:stream';
import { closeSession, clusterIdHeader, sessionLimits, tunnelProtocol } from './protocol.ts';

/** Frequent enough for an agent to notice a vanished hub replica in 25 s (`dialHub`'s silence limit). */
const pingEveryMs = 10_000;
/** Two missed pongs and a half: one slow answer from a busy agent must not cut its tunnel. */
const silentAgentMs = 25_000;

/**
 * The hub's end of one agent's tunnel: an HTTP/2 client session straight on the agent's upgraded connection.
 * Requests are HTTP/2 streams (flow control and cancellation per request); `connect` opens a raw byte stream
 * for upgrades. An agent that answers no ping for 25 s is taken for dead and its tunnel closed.
 */
export class TunnelClient {
  readonly session: ClientHttp2Session;
  readonly closed: Promise<void>;

  /** `socket`: the agent's connection once the hub has written its 101 answer on it. */
  constructor(socket: Duplex) {
    this.session = http2.connect('http://agent.tunnel', {
      ...sessionLimits,
      createConnection: () => socket,
    });
    const session = this.session;
    session.on('error', () => session.destroy());
    // The hub's HTTP server keeps a socket open after the agent's end of it closes (half-open): a tunnel whose
    // agent is gone is gone, and its streams in flight end now rather than wait for the ping to fail.
    socket.once('end', () => session.destroy());
    let answeredAt = Date.now();
    const heartbeat = setInterval(() => {
      if (Date.now() - answeredAt > silentAgentMs) return session.destroy();
      if (!session.closed)
        session.ping((error) => {
          if (!error) answeredAt = Date.now();
        });
    }, pingEveryMs);
    heartbeat.unref();
    this.closed = new Promise((resolve) => {
      session.on('close', () => {
        clearInterval(heartbeat);
        resolve();
      });
    });
  }

  get open(): boolean {
    return !this.session.destroyed && !this.session.closed;
  }

  /** A request stream; `endStream` for requests without a body (the caller writes and ends it otherwise). */
  request(headers: OutgoingHttpHeaders, options: { endStream?: boolean } = {}): ClientHttp2Stream {
    const stream = this.session.request(headers, { endStream: options.endStream ?? false });
    stream.on('error', () => stream.destroy());
    return stream;
  }

  /** A raw byte stream to the agent's server (HTTP/1.1 upgrade requests for WebSocket routes). */
  connect(): ClientHttp2Stream {
    return this.request({ ':method': 'CONNECT', ':authority': 'agent.tunnel' });
  }

  /** Ends the tunnel: pending streams are cancelled, and the agent is told the code and reason. */
  close(code = 1000, reason = ''): void {
    closeSession(this.session, code, reason);
  }
}

/** Whether an upgrade request asks for the tunnel's protocol (an agent dialing in). */
export const asksForTunnel = (headers: { upgrade?: string }): boolean =>
  headers.upgrade?.toLowerCase() === tunnelProtocol;

/**
 * Switches an agent's connection, once the hub has decided whose cluster it is, to the tunnel: the 101 answer
 * names the cluster (forwarded identities carry it), then HTTP/2 starts on the socket with the hub as client.
 * It starts once the answer is written: a session taking over a TLS socket with a write still pending aborts
 * the process (a native assertion in Node's HTTP/2).
 */
export async function acceptTunnel(socket: Duplex, head: Buffer, clusterId: string): Promise<TunnelClient> {
  const answer = `HTTP/1.1 101 Switching Protocols\r\nconnection: Upgrade\r\nupgrade: ${tunnelProtocol}\r\n${clusterIdHeader}: ${clusterId}\r\n\r\n`;
  await new Promise<void>((resolve, reject) => {
    socket.write(answer, (error) => (error ? reject(error) : resolve()));
  });
  // The agent speaks only once it has the answer; anything it sent along already belongs to HTTP/2.
  if (head.length > 0) socket.unshift(head);
  return new TunnelClient(socket);
}
