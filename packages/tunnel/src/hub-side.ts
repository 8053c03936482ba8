import http2, { type ClientHttp2Session, type ClientHttp2Stream, type OutgoingHttpHeaders } from 'node:http2';
import type { WebSocket } from 'ws';
import { webSocketStream } from './ws-stream.ts';

/** Frequent enough for an agent to notice a vanished hub replica in 25 s (`dialHub`'s silence limit). */
const pingEveryMs = 10_000;
/** Two missed pongs and a half: one slow answer from a busy agent must not cut its tunnel. */
const silentAgentMs = 25_000;

/**
 * The hub's end of one agent's tunnel: an HTTP/2 client session over the agent's WebSocket. Requests are
 * HTTP/2 streams (flow control and cancellation per request); `connect` opens a raw byte stream for upgrades.
 * An agent that answers no ping for 25 s is taken for dead and its tunnel closed.
 */
export class TunnelClient {
  readonly session: ClientHttp2Session;
  readonly closed: Promise<void>;
  readonly #ws: WebSocket;

  constructor(ws: WebSocket) {
    this.#ws = ws;
    const duplex = webSocketStream(ws);
    duplex.on('error', () => duplex.destroy());
    this.session = http2.connect('http://agent.tunnel', {
      createConnection: () => duplex,
      peerMaxConcurrentStreams: 256,
    });
    this.session.on('error', () => this.session.destroy());
    let answeredAt = Date.now();
    ws.on('pong', () => {
      answeredAt = Date.now();
    });
    const heartbeat = setInterval(() => {
      if (Date.now() - answeredAt > silentAgentMs) return ws.terminate();
      ws.ping();
    }, pingEveryMs);
    heartbeat.unref();
    this.closed = new Promise((resolve) => {
      ws.on('close', () => {
        clearInterval(heartbeat);
        this.session.destroy();
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

  /** A raw byte stream to the agent's listener (HTTP/1.1 upgrade requests for WebSocket routes). */
  connect(): ClientHttp2Stream {
    return this.request({ ':method': 'CONNECT', ':authority': 'agent.tunnel' });
  }

  /** Ends the tunnel: pending streams are cancelled, then the WebSocket closes with the code and reason. */
  close(code = 1000, reason = ''): void {
    this.session.destroy();
    if (this.#ws.readyState === this.#ws.OPEN || this.#ws.readyState === this.#ws.CONNECTING)
      this.#ws.close(code, reason);
  }
}
