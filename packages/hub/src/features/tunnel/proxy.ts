import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ClientHttp2Stream, IncomingHttpHeaders, IncomingHttpStatusHeader } from 'node:http2';
import type { Readable } from 'node:stream';
import { AppError } from '@binnacle/common/server';
import { forwardableHeaders } from '@binnacle/tunnel';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HubContext } from '../../context.ts';
import { principalOf } from '../../http/principal.ts';
import type { Principal } from '../../security/principal.ts';
import { agentRequestHeaders, type ReachedTunnel, tunnelFor } from '../../services/clusters/reach.ts';
import { type TunneledUrl, tunneledUrl } from './tunneled-url.ts';

export type ProxyDeps = Pick<
  HubContext,
  'accessCache' | 'clock' | 'database' | 'liveStreams' | 'log' | 'replicas' | 'tunnels'
>;

/** One client request on its way to a cluster's agent, and where its answer goes. */
export interface Exchange {
  request: IncomingMessage;
  response: ServerResponse;
  /** The body to forward; none for GET and HEAD. */
  upload?: Readable;
  target: TunneledUrl;
  /** The caller as the hub authenticated them (before scoping to the cluster's organization). */
  caller: Principal;
  /** Runs once the agent's head arrived, right before the first byte is written to `response`. */
  beforeAnswer?: () => void;
  /** Whether the hub is stopping: answers going out then end their keep-alive connection, so closing does not wait. */
  closing: () => boolean;
}

/** `{hub}/c/{cluster_id}/…` as a fastify route: writes, OPTIONS, page loads, all the read path leaves (read-path.ts). */
export async function proxyRequest(
  ctx: ProxyDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  closing: () => boolean,
) {
  // The route matched /c/:cluster_id…, so the URL is a tunneled one; only its reading can refuse it.
  const target = tunneledUrl(request.url) as TunneledUrl;
  const caller = principalOf(request);
  const upload = ['GET', 'HEAD'].includes(request.method)
    ? undefined
    : (request.body as Readable | undefined);
  const exchange = { request: request.raw, response: reply.raw, upload, target, caller, closing };
  await relayToAgent(
    ctx,
    {
      ...exchange,
      beforeAnswer: () => {
        reply.hijack();
      },
    },
    await tunnelFor(ctx, caller, target.clusterId),
  );
  return reply;
}

/**
 * The request goes to the cluster's agent as an HTTP/2 stream over its tunnel, with the caller's identity
 * signed for that cluster; the answer (JSON, SSE, downloads) streams back as it comes. A tunnel that drops
 * before the agent answers is a 502 `cluster_disconnected` (a read relayed through a replica that died is sent
 * once more first); a client that goes away cancels the stream, which ends the request at the agent. Throws
 * only before anything is written to the response.
 */
export async function relayToAgent(
  ctx: ProxyDeps,
  exchange: Exchange,
  reached: Awaited<ReturnType<typeof tunnelFor>>,
  retried = false,
): Promise<void> {
  const { request, response, upload, target } = exchange;
  const { tunnel, identity, principal } = reached;
  const forwarded = agentRequestHeaders(request.headers, identity);
  // A body that is not forwarded (a GET's has no meaning) takes its length along: the agent would wait for it.
  if (!upload) delete forwarded['content-length'];
  const stream = tunnel.client.request(
    { ':method': request.method, ':path': target.agentPath, ...forwarded },
    { endStream: !upload },
  );
  if (upload) upload.pipe(stream);
  // Whoever ends first ends the rest: the client going away, the access the request was made with ending
  // (LiveStreams), the tunnel dropping. Tracked from the start, so nothing slips between the checks.
  let accessEnded = false;
  const untrack = ctx.liveStreams.track(principal, () => {
    accessEnded = true;
    response.destroy();
    stream.close();
  });
  const clientGone = () => {
    untrack();
    stream.close();
  };
  response.on('close', clientGone);
  if (request.destroyed) clientGone();
  const head = await headOf(stream);
  if (!head && accessEnded)
    throw new AppError(
      'forbidden',
      'the access this request was made with ended or changed (removal, role change, sign-out, revoked token)',
    );
  // A replica that dies takes the requests relayed through it along; a read goes again, once, to wherever its
  // cluster lands (tunnelFor waits for that), since its client has not seen a byte of the answer yet.
  const rereadable = ['GET', 'HEAD'].includes(request.method ?? '') && tunnel.client.relayed === true;
  if (!head && rereadable && !retried && !request.destroyed) {
    untrack();
    response.off('close', clientGone);
    const again = await tunnelFor(ctx, exchange.caller, target.clusterId);
    return relayToAgent(ctx, exchange, again, true);
  }
  if (!head)
    throw new AppError(
      'cluster_disconnected',
      'the tunnel to the cluster dropped before its agent answered; retry',
    );
  exchange.beforeAnswer?.();
  if (exchange.closing()) response.shouldKeepAlive = false;
  relayAnswer(head, stream, response, tunnel);
}

type Head = IncomingHttpHeaders & IncomingHttpStatusHeader;

/** The agent's head, or undefined when the stream closes first (tunnel dropped, stream cancelled or reset). */
const headOf = (stream: ClientHttp2Stream) =>
  new Promise<Head | undefined>((resolve) => {
    const answered = (headers: Head) => {
      stream.off('close', closed);
      resolve(headers);
    };
    const closed = () => {
      stream.off('response', answered);
      resolve(undefined);
    };
    stream.once('response', answered);
    stream.once('close', closed);
  });

/**
 * The agent's answer, written to the client's response as it comes, past fastify's reply path (serializers,
 * onSend hooks, a stream copy; ADR 0112). The agent's own caching word stands (no-store everywhere but its
 * content-hashed UI assets); none is no-store.
 */
function relayAnswer(
  headers: Head,
  stream: ClientHttp2Stream,
  response: ServerResponse,
  tunnel: ReachedTunnel,
): void {
  const { 'set-cookie': _dropped, ...passed } = forwardableHeaders(headers);
  response.writeHead(Number(headers[':status']), { 'cache-control': 'no-store', ...passed });
  // By hand rather than `pipe`: its half-dozen listeners per answer showed in the hub's profile.
  stream.on('data', (chunk: Buffer) => {
    if (!response.write(chunk)) stream.pause();
  });
  response.on('drain', () => stream.resume());
  // A tunnel that drops mid-answer (agent gone, hub stopping) cuts the answer too, so the client sees the end.
  // Node ends a stream of a destroyed session as if it were complete: only an end while the tunnel is still
  // up is the agent's; otherwise a short answer would look whole, or leave a client told a length waiting.
  stream.on('end', () => {
    if (tunnel.client.open) response.end();
    else response.destroy();
  });
  stream.on('close', () => {
    if (!response.writableEnded) response.destroy();
  });
}
