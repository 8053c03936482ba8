import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError, toAppError } from '@binnacle/common/server';
import type { HubContext } from '../../context.ts';
import { authenticate, type Credentials } from '../../http/authenticate.ts';
import { cookieBased } from '../../http/principal.ts';
import { agentRequestHeaders, tunnelFor } from '../../services/clusters/reach.ts';
import { refuseUpgrade } from './agent-connect.ts';
import type { TunneledUrl } from './tunneled-url.ts';

/** What a tunneled WebSocket upgrade reads: authentication (it runs outside fastify's hook), then the tunnel. */
export type UpgradeDeps = Pick<
  HubContext,
  | 'accessCache'
  | 'audit'
  | 'breakGlass'
  | 'changes'
  | 'clock'
  | 'config'
  | 'database'
  | 'hosted'
  | 'liveStreams'
  | 'log'
  | 'metrics'
  | 'oidc'
  | 'refresher'
  | 'replicas'
  | 'sessions'
  | 'tunnels'
>;

const websocketHeaders = ['sec-websocket-key', 'sec-websocket-version', 'sec-websocket-protocol'];

/**
 * A WebSocket route of an agent (exec, terminal) through `{hub}/c/{cluster_id}/…`: authenticated like any hub
 * request, refused from foreign pages when a cookie carries it (cross-site WebSocket hijacking), then a raw
 * CONNECT stream carries a rebuilt HTTP/1.1 upgrade — only the WebSocket handshake headers and the signed
 * identity reach the agent — and the bytes flow both ways.
 */
export async function proxyUpgrade(
  ctx: UpgradeDeps,
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  credentials: Credentials,
  target: TunneledUrl,
) {
  socket.on('error', () => socket.destroy());
  try {
    const principal = await authenticate(ctx, credentials, () => undefined);
    const hubOrigin = new URL(ctx.config.publicUrl).origin;
    if (cookieBased(principal) && request.headers.origin !== hubOrigin) {
      throw new AppError(
        'origin_rejected',
        'a WebSocket opened with the session cookie must come from the hub page',
      );
    }
    const { tunnel, identity, principal: inCluster } = await tunnelFor(ctx, principal, target.clusterId);
    const stream = tunnel.client.connect();
    // Tracked from the start: the access ending (LiveStreams) or the client leaving ends the other side.
    const untrack = ctx.liveStreams.track(inCluster, () => socket.destroy());
    const clientGone = () => {
      untrack();
      stream.destroy();
    };
    socket.on('close', clientGone);
    if (socket.destroyed) clientGone();
    const answered = await Promise.race([
      once(stream, 'response').then(() => true),
      once(stream, 'close').then(() => false),
    ]);
    if (!answered) throw new AppError('cluster_disconnected', 'the tunnel to the cluster dropped; retry');
    const headers = {
      ...agentRequestHeaders(request.headers, identity),
      host: 'agent.tunnel',
      connection: 'Upgrade',
      upgrade: 'websocket',
    };
    for (const name of websocketHeaders) {
      const value = request.headers[name];
      if (typeof value === 'string') headers[name as keyof typeof headers] = value;
    }
    const lines = Object.entries(headers).map(([name, value]) => `${name}: ${value}`);
    stream.write(`GET ${target.agentPath} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    if (head.length) stream.write(head);
    stream.pipe(socket);
    socket.pipe(stream);
    stream.on('close', () => socket.destroy());
  } catch (error) {
    const failure = toAppError(error);
    if (failure.code === 'internal_error') ctx.log.error({ err: error }, 'tunnel upgrade failed');
    refuseUpgrade(socket, failure);
  }
}
