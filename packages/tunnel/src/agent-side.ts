import type { IncomingHttpHeaders, Server } from 'node:http';
import http2, { type IncomingHttpHeaders as Http2Headers, type ServerHttp2Session } from 'node:http2';
import type { Duplex } from 'node:stream';
import { sessionLimits } from './protocol.ts';

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

const colon = ':'.charCodeAt(0);

export function forwardableHeaders(
  headers: Http2Headers | IncomingHttpHeaders,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const name in headers) {
    const value = headers[name];
    if (value === undefined || name.charCodeAt(0) === colon || hopByHop.has(name)) continue;
    out[name] = value as string | string[];
  }
  return out;
}

/** The agent's own HTTP server: tunneled requests run through its routes, hooks and limits, in this process. */
export interface LocalTarget {
  server: Server;
}

/**
 * The requests (HTTP/2 compatibility objects) and CONNECT streams the tunnel handed to a local server. Only the
 * tunnel adds to it, and a request arriving on the server's own port is an object the server made, so it can
 * never be one of these, whatever it sends (docs/adr/0111-tunneled-requests-dispatched-in-process.md).
 */
const tunneled = new WeakSet<object>();

/**
 * Whether a request came through the hub's tunnel: dispatched by it, or parsed from the bytes of one of its
 * CONNECT streams (WebSocket upgrades). Decided by object identity, never by anything the caller sends.
 */
export const cameThroughTunnel = (request: object & { socket?: unknown }): boolean =>
  tunneled.has(request) ||
  (typeof request.socket === 'object' && request.socket !== null && tunneled.has(request.socket));

/**
 * The agent's end of a tunnel: HTTP/2 served straight on the upgraded socket (the hub is the client). Each
 * stream is handed, as Node's HTTP/2 compatibility request and response, to the agent's own server as if it had
 * arrived there, with no loopback connection in between; CONNECT streams carry the bytes of an HTTP/1.1
 * upgrade (exec, terminals) and are handed over as connections. Every stream has an error handler: a dropped
 * tunnel must never crash the agent.
 */
export function serveTunnel(socket: Duplex, target: LocalTarget): ServerHttp2Session {
  const server = http2.createServer(sessionLimits);
  server.on('request', (request, response) => {
    request.on('error', () => request.stream.destroy());
    response.on('error', () => request.stream.destroy());
    tunneled.add(request);
    target.server.emit('request', request, response);
  });
  server.on('connect', (request) => {
    const stream = request.stream;
    stream.on('error', () => stream.destroy());
    stream.respond({ ':status': 200 });
    tunneled.add(stream);
    target.server.emit('connection', stream);
  });
  let session: ServerHttp2Session | undefined;
  server.once('session', (created) => {
    session = created;
  });
  // HTTP/2 was agreed by the upgrade, not by TLS's ALPN: an HTTP/2 server takes a TLS socket that negotiated
  // nothing for HTTP/1.1 and refuses it, so the socket says what the handshake chose.
  if ('encrypted' in socket && (socket as { alpnProtocol?: unknown }).alpnProtocol !== 'h2')
    Object.defineProperty(socket, 'alpnProtocol', { value: 'h2', configurable: true });
  server.emit('connection', socket);
  if (!session) throw new Error('the HTTP/2 server did not take the tunnel socket');
  const live = session;
  live.on('error', () => live.destroy());
  return live;
}
