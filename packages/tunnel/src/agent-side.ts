import http, { type IncomingHttpHeaders } from 'node:http';
import http2, { type IncomingHttpHeaders as Http2Headers, type ServerHttp2Stream } from 'node:http2';
import net from 'node:net';
import type { WebSocket } from 'ws';
import { webSocketStream } from './ws-stream.ts';

/** Headers that belong to one hop and must not be forwarded (RFC 9110 §7.6.1), plus HTTP/2 pseudo-headers. */
const hopByHop = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'http2-settings',
  'host',
]);

export function forwardableHeaders(
  headers: Http2Headers | IncomingHttpHeaders,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || name.startsWith(':') || hopByHop.has(name)) continue;
    out[name] = value as string | string[];
  }
  return out;
}

export interface LocalTarget {
  host: string;
  port: number;
  /**
   * Filled with the local ends (`address:port`, see `peerKey`) of the connections the tunnel opens to the
   * target, while they are open. TCP allows one connection per address pair, so while the tunnel holds one no
   * other client can arrive from that end: the agent tells tunneled requests from direct ones by it, never by
   * anything a caller sends.
   */
  tunnelPeers?: Set<string>;
}

/** One end of a TCP connection as the other end sees it; IPv4 peers of a dual-stack listener are named plainly. */
export const peerKey = (address: string | undefined, port: number | undefined): string =>
  `${address?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '') ?? ''}:${port ?? ''}`;

const tracked = new WeakSet<net.Socket>();

/** Records a connection as the tunnel's from the moment it connects (before it carries a byte). */
function trackTunnelPeer(socket: net.Socket, target: LocalTarget): void {
  const peers = target.tunnelPeers;
  if (!peers || tracked.has(socket)) return; // kept-alive connections come back for the next request
  tracked.add(socket);
  const record = () => {
    if (socket.localPort === undefined) return;
    const peer = peerKey(socket.localAddress, socket.localPort);
    peers.add(peer);
    socket.once('close', () => peers.delete(peer));
  };
  if (socket.connecting) socket.once('connect', record);
  else record();
}

/**
 * The agent's end of a tunnel: HTTP/2 served over the WebSocket byte stream (the hub is the HTTP/2 client).
 * Each stream becomes a request to the agent's own listener on loopback, so tunneled requests run through
 * exactly the routes direct ones do; CONNECT streams carry raw bytes (WebSocket upgrades for exec and
 * terminals). Every stream and socket has an error handler: a dropped tunnel must never crash the agent.
 */
export function serveOverWebSocket(ws: WebSocket, target: LocalTarget): http2.ServerHttp2Session {
  const duplex = webSocketStream(ws);
  duplex.on('error', () => duplex.destroy());
  const session = http2.performServerHandshake(duplex, { peerMaxConcurrentStreams: 256 });
  session.on('error', () => session.destroy());
  const pool = new http.Agent({ keepAlive: true });
  session.on('stream', (stream, headers) => {
    stream.on('error', () => stream.destroy());
    if (headers[':method'] === 'CONNECT') pipeRaw(stream, target);
    else forwardRequest(stream, headers, target, pool);
  });
  ws.on('close', () => {
    session.destroy();
    pool.destroy();
  });
  return session;
}

function forwardRequest(
  stream: ServerHttp2Stream,
  headers: Http2Headers,
  target: LocalTarget,
  pool: http.Agent,
  retried = false,
): void {
  const upstream = http.request({
    host: target.host,
    port: target.port,
    method: headers[':method'],
    path: headers[':path'],
    headers: forwardableHeaders(headers),
    // The tunnel's own pool: every connection the target sees from it is known to be the tunnel's.
    agent: pool,
  });
  upstream.on('socket', (socket) => trackTunnelPeer(socket as net.Socket, target));
  upstream.on('response', (response) => {
    if (stream.destroyed) return response.destroy();
    stream.respond({ ':status': response.statusCode ?? 502, ...forwardableHeaders(response.headers) });
    response.pipe(stream);
    response.on('error', () => stream.destroy());
  });
  upstream.on('error', (error: NodeJS.ErrnoException) => {
    if (stream.destroyed) return;
    // A kept-alive connection the target closed just as the pool reused it (their idle timeouts racing, worst
    // on a busy process): the request never reached the target, so a bodiless one goes again, once, fresh.
    if (!retried && upstream.reusedSocket && error.code === 'ECONNRESET' && stream.endAfterHeaders) {
      upstream.removeAllListeners('response');
      return forwardRequest(stream, headers, target, pool, true);
    }
    if (!stream.headersSent)
      stream.respond({ ':status': 502, 'content-type': 'application/json', 'cache-control': 'no-store' });
    stream.end(
      JSON.stringify({ error: 'the agent did not answer its own request', code: 'cluster_disconnected' }),
    );
  });
  // The hub cancelling the stream (client gone) cancels the local request: SSE and log streams end here too.
  stream.on('close', () => upstream.destroy());
  if (stream.endAfterHeaders) upstream.end();
  else stream.pipe(upstream);
}

function pipeRaw(stream: ServerHttp2Stream, target: LocalTarget): void {
  const socket = net.connect(target.port, target.host);
  trackTunnelPeer(socket, target);
  socket.on('error', () => stream.destroy());
  socket.on('connect', () => {
    stream.respond({ ':status': 200 });
    socket.pipe(stream);
    stream.pipe(socket);
  });
  stream.on('close', () => socket.destroy());
  socket.on('close', () => stream.destroy());
}
