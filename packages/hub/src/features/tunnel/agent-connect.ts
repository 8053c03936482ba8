import { type IncomingMessage, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import { AppError } from '@binnacle/common/server';
import {
  acceptTunnel,
  agentVersionHeader,
  asksForTunnel,
  identityKey,
  tunnelProtocol,
} from '@binnacle/tunnel';
import type { HubContext } from '../../context.ts';
import { iso } from '../../security/clock.ts';
import { clusterForToken } from '../../services/clusters/directory.ts';

type Deps = Pick<HubContext, 'clock' | 'database' | 'log' | 'tunnels'>;

export const agentConnectPath = '/api/agents/connect';

/** Answers a refused upgrade with a plain HTTP error in the `{error, code}` shape, then closes the socket. */
export function refuseUpgrade(socket: Duplex, failure: AppError): void {
  const { status } = failure;
  const body = JSON.stringify(failure.toBody());
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
      `content-type: application/json\r\ncache-control: no-store\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
}

/**
 * An agent dials in with `Authorization: Bearer bnc_…`, asking to switch to the tunnel's protocol. The cluster
 * is derived from the token only, never from anything else the agent sends. The hub answers 101 naming the
 * cluster, and from then on the socket carries HTTP/2 with the hub as the client
 * (docs/adr/0110-the-tunnel-is-http2-on-the-upgraded-socket.md). The tunnel replaces any older one of the same
 * cluster, and the cluster's last-seen time and agent version are recorded.
 */
export async function acceptAgent(ctx: Deps, request: IncomingMessage, socket: Duplex, head: Buffer) {
  const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
  const token = match?.[1];
  const cluster = token ? await clusterForToken(ctx, token) : undefined;
  if (!cluster || !token)
    return refuseUpgrade(
      socket,
      new AppError('unauthenticated', 'a valid cluster token (Bearer bnc_…) is required'),
    );
  if (!asksForTunnel(request.headers))
    return refuseUpgrade(
      socket,
      new AppError(
        'upgrade_required',
        `agents connect with Upgrade: ${tunnelProtocol}; upgrade this agent to the hub's version`,
      ),
    );
  const agentVersion = String(request.headers[agentVersionHeader] ?? '').slice(0, 64) || null;
  if (socket.destroyed) return;
  const client = await acceptTunnel(socket, head, cluster.id).catch(() => undefined);
  if (!client) return void socket.destroy();
  ctx.tunnels.add({
    client,
    clusterId: cluster.id,
    tokenHash: identityKey(token),
    agentVersion,
    connectedAt: ctx.clock.now(),
  });
  const seen = () =>
    ctx.database.db
      .updateTable('clusters')
      .set({ last_seen_at: iso(ctx.clock.now()), agent_version: agentVersion })
      .where('id', '=', cluster.id)
      .execute()
      .catch((error: unknown) => ctx.log.warn({ err: error }, 'could not record the agent connection'));
  void seen();
  void client.closed.then(seen);
  ctx.log.info({ cluster: cluster.id, agentVersion }, 'agent connected');
}
