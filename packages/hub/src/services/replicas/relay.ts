import http2, {
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
  type ServerHttp2Stream,
} from 'node:http2';
import type { Socket } from 'node:net';
import type { Clock } from '../../security/clock.ts';
import type { TunnelRegistry } from '../tunnels/registry.ts';
import { type PeerTokens, peerClusterHeader, peerHeader } from './peer-token.ts';

const { NGHTTP2_REFUSED_STREAM, NGHTTP2_INTERNAL_ERROR, NGHTTP2_CANCEL } = http2.constants;
/** HTTP/2 pseudo-headers of an incoming request that the tunnel's own session sets again. */
const sessionOwned = new Set([':scheme', ':authority', peerHeader, peerClusterHeader]);

/**
 * The replica port (docs/scaling.md): other replicas relay streams for clusters whose tunnel this replica
 * holds. Each stream is checked (a peer token for that cluster), then goes to the agent unchanged — the
 * caller's access was decided and the identity signed by the replica the caller reached. An agent answer
 * cut short is reset, never ended, so the other replica never takes a partial answer for a whole one.
 */
/** What the relay reads: the tunnels this replica holds, and the time peer tokens are checked at. */
export interface RelayDeps {
  clock: Clock;
  tunnels: TunnelRegistry;
}

export function startRelay(ctx: RelayDeps, tokens: PeerTokens) {
  const server = http2.createServer({ settings: { maxConcurrentStreams: 10_000 } });
  const sockets = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('session', (session) => session.on('error', () => session.destroy()));
  server.on('stream', (stream, headers) => relayStream(ctx, tokens, stream, headers));
  return {
    server,
    /** Stops relaying: the other replicas' sessions are cut (their streams fail over as the tunnels did). */
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

export type Relay = ReturnType<typeof startRelay>;

function relayStream(
  ctx: RelayDeps,
  tokens: PeerTokens,
  incoming: ServerHttp2Stream,
  headers: IncomingHttpHeaders,
): void {
  incoming.on('error', () => incoming.destroy());
  const clusterId = String(headers[peerClusterHeader] ?? '');
  const token = String(headers[peerHeader] ?? '');
  if (!tokens.verify(token, clusterId, ctx.clock.now().getTime())) {
    incoming.respond({ ':status': 401, 'content-type': 'application/json' });
    incoming.end(JSON.stringify({ error: 'not a replica of this hub', code: 'unauthenticated' }));
    return;
  }
  const tunnel = ctx.tunnels.get(clusterId);
  // The claim in Redis is stale (the agent left or moved): the other replica answers the caller.
  if (!tunnel) return void incoming.close(NGHTTP2_REFUSED_STREAM);
  const connect = headers[':method'] === 'CONNECT';
  const outgoing = connect
    ? tunnel.client.connect()
    : tunnel.client.request(defined(headers, sessionOwned), { endStream: incoming.endAfterHeaders });
  incoming.on('close', () => {
    if (!outgoing.closed) outgoing.close(NGHTTP2_CANCEL);
  });
  outgoing.on('close', () => {
    if (!incoming.closed && !incoming.writableEnded) incoming.close(NGHTTP2_INTERNAL_ERROR);
  });
  outgoing.once('response', (answer) => {
    if (incoming.closed) return;
    incoming.respond(connect ? { ':status': 200 } : defined(answer));
    outgoing.pipe(incoming, { end: false });
    // Node ends the streams of a dropped tunnel as if complete: only an end while it is up is the agent's.
    outgoing.on('end', () => {
      if (tunnel.client.open) incoming.end();
      else incoming.close(NGHTTP2_INTERNAL_ERROR);
    });
  });
  if (connect || !incoming.endAfterHeaders) incoming.pipe(outgoing);
}

/** The headers as they may be sent on: those with a value, but the ones `skip` names. */
function defined(headers: IncomingHttpHeaders, skip = new Set<string>()): OutgoingHttpHeaders {
  const out: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers))
    if (!skip.has(name) && value !== undefined) out[name] = value;
  return out;
}
