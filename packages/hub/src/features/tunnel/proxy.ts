import { once } from 'node:events';
import type { IncomingMessage } from 'node:http';
import { PassThrough, type Readable } from 'node:stream';
import { AppError } from '@binnacle/common/server';
import { forwardableHeaders } from '@binnacle/tunnel';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { HubContext } from '../../context.ts';
import { principalOf } from '../../http/principal.ts';
import { agentRequestHeaders, tunnelFor } from '../../services/clusters/reach.ts';
import { type TunneledUrl, tunneledUrl } from './tunneled-url.ts';

type Deps = Pick<
  HubContext,
  'accessCache' | 'clock' | 'database' | 'liveStreams' | 'log' | 'replicas' | 'tunnels'
>;

/**
 * `{hub}/c/{cluster_id}/…`: the request goes to the cluster's agent as an HTTP/2 stream over its tunnel, with
 * the caller's identity signed for that cluster; the answer (JSON, SSE, downloads) streams back as it comes.
 * A tunnel that drops before the agent answers is a 502 `cluster_disconnected` (a read relayed through a
 * replica that died is sent once more first); a client that goes away cancels the stream, which ends the
 * request at the agent.
 */
export async function proxyRequest(
  ctx: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  retried = false,
): Promise<FastifyReply> {
  // The route matched /c/:cluster_id…, so the URL is a tunneled one; only its reading can refuse it.
  const target = tunneledUrl(request.url) as TunneledUrl;
  const { tunnel, identity, principal } = await tunnelFor(ctx, principalOf(request), target.clusterId);
  const upload = request.body as Readable | undefined;
  const hasBody = upload !== undefined && !['GET', 'HEAD'].includes(request.method);
  const forwarded = agentRequestHeaders(request.headers, identity);
  // A body that is not forwarded (a GET's has no meaning) takes its length along: the agent would wait for it.
  if (!hasBody) delete forwarded['content-length'];
  const stream = tunnel.client.request(
    {
      ':method': request.method,
      ':path': target.agentPath,
      ...forwarded,
    },
    { endStream: !hasBody },
  );
  if (hasBody) upload.pipe(stream);
  // Whoever ends first ends the rest: the client going away, the access the request was made with ending
  // (LiveStreams), the tunnel dropping. Tracked from the start, so nothing slips between the checks.
  const answer = new PassThrough();
  let accessEnded = false;
  const untrack = ctx.liveStreams.track(principal, () => {
    accessEnded = true;
    answer.destroy();
    stream.close();
  });
  const clientGone = () => {
    untrack();
    stream.close();
  };
  reply.raw.on('close', clientGone);
  if (request.raw.destroyed) clientGone();
  // Wired before the answer arrives: a bodiless answer (202, 204) can end the stream as its head arrives.
  // `answer` is a readable-only copy for fastify, which judges the end of a duplex HTTP/2 stream as premature.
  stream.pipe(answer, { end: false });
  // A tunnel that drops mid-answer (agent gone, hub stopping) cuts the answer too, so the client sees the end.
  // Node ends a stream of a destroyed session as if it were complete: only an end while the tunnel is still
  // up is the agent's; otherwise a short answer would look whole, or leave a client told a length waiting.
  stream.on('end', () => {
    if (tunnel.client.open) answer.end();
    else answer.destroy();
  });
  stream.on('close', () => {
    if (!answer.writableEnded) answer.destroy();
  });
  const answered = once(stream, 'response') as Promise<
    [Record<string, string | string[] | number | undefined>]
  >;
  const dropped = once(stream, 'close').then(() => undefined);
  const response = await Promise.race([answered, dropped]);
  if (!response && accessEnded)
    throw new AppError(
      'forbidden',
      'the access this request was made with ended or changed (removal, role change, sign-out, revoked token)',
    );
  // A replica that dies takes the requests relayed through it along; a read goes again, once, to wherever its
  // cluster lands (tunnelFor waits for that), since its client has not seen a byte of the answer yet.
  const rereadable = ['GET', 'HEAD'].includes(request.method) && tunnel.client.relayed === true;
  if (!response && rereadable && !retried && !request.raw.destroyed) {
    untrack();
    reply.raw.off('close', clientGone);
    return proxyRequest(ctx, request, reply, true);
  }
  if (!response)
    throw new AppError(
      'cluster_disconnected',
      'the tunnel to the cluster dropped before its agent answered; retry',
    );
  const [headers] = response;
  const { 'set-cookie': _dropped, ...passed } = forwardableHeaders(headers as IncomingMessage['headers']);
  // The agent's own caching word stands (no-store everywhere but its content-hashed UI assets); none is no-store.
  return reply
    .code(Number(headers[':status']))
    .headers({ ...passed, 'cache-control': passed['cache-control'] ?? 'no-store' })
    .send(answer);
}
